import * as z from 'zod';
import { PLANS, TokenPermissionSchema, TOKEN_PERMISSIONS } from '../../src-shared/api/index.js';
import { parseAllowEntry } from '../auth/ip-allow-list.js';
import { systemClock } from '../clock.js';
import { DataPaths } from '../data-paths.js';
import { AccountStore } from '../db/accounts.js';
import { openDatabase } from '../db/database.js';

/** A mistake in an admin command line; the CLI prints its message and exits 2. */
export class UsageError extends Error {}

const USAGE = `admin --data-dir DIR account create NAME [--plan free|premium]
admin --data-dir DIR token create --account NAME [--abilities files:read,files:write,remote:write]
                                 [--expires-in SECONDS] [--ip CIDR,...] [--disabled]
admin --data-dir DIR token disable|enable --token TOKEN
admin --data-dir DIR api disable|enable
admin --data-dir DIR folder create --account NAME [--name NAME]`;

const AdminFlagsSchema = z.object({
  'data-dir': z.string().min(1, '--data-dir is required'),
  plan: z.enum(PLANS).default('free'),
  account: z.string().optional(),
  abilities: z
    .string()
    .default(TOKEN_PERMISSIONS.join(','))
    .transform((list) =>
      list
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(TokenPermissionSchema).min(1)),
  'expires-in': z.coerce.number().int().positive().optional(),
  ip: z
    .string()
    .optional()
    .transform((list) =>
      list
        ? list
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean)
        : [],
    ),
  disabled: z.boolean().default(false),
  token: z.string().optional(),
  name: z.string().optional(),
});

export type AdminFlags = z.input<typeof AdminFlagsSchema>;

/**
 * The admin commands. They write to the server's SQLite database directly, so
 * they work while the server runs: the server reads tokens and the API switch
 * on every request.
 */
export function runAdmin(words: readonly string[], rawFlags: AdminFlags): unknown {
  const parsed = AdminFlagsSchema.safeParse(rawFlags);
  if (!parsed.success)
    throw new UsageError(
      `${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n')}\n\n${USAGE}`,
    );
  const flags = parsed.data;
  const paths = new DataPaths(flags['data-dir']);
  paths.ensure();
  const db = openDatabase(paths.database);
  const accounts = new AccountStore(db, systemClock);
  const accountNamed = (name: string | undefined) => {
    if (!name) throw new UsageError(`--account is required\n\n${USAGE}`);
    const account = accounts.accountByUsername(name);
    if (!account) throw new UsageError(`no account named ${name}`);
    return account;
  };
  try {
    const [noun, verb, arg] = words;
    switch (`${noun} ${verb}`) {
      case 'account create': {
        if (!arg) throw new UsageError(`account create needs a NAME\n\n${USAGE}`);
        if (accounts.accountByUsername(arg)) throw new UsageError(`an account named ${arg} already exists`);
        const account = accounts.createAccount(arg, flags.plan);
        const token = accounts.createToken(account.id, { abilities: TOKEN_PERMISSIONS });
        return { account: arg, token };
      }
      case 'token create': {
        const account = accountNamed(flags.account);
        for (const entry of flags.ip) {
          try {
            parseAllowEntry(entry);
          } catch {
            throw new UsageError(`--ip: ${entry} is not an IP address or CIDR range`);
          }
        }
        const token = accounts.createToken(account.id, {
          abilities: flags.abilities,
          allowedIps: flags.ip,
          expiresAt: flags['expires-in'] ? Date.now() + flags['expires-in'] * 1000 : null,
          disabled: flags.disabled,
        });
        return { token };
      }
      case 'token disable':
      case 'token enable': {
        if (!flags.token) throw new UsageError(`--token is required\n\n${USAGE}`);
        if (!accounts.setTokenDisabled(flags.token, verb === 'disable')) throw new UsageError('no such token');
        return { token: 'updated', disabled: verb === 'disable' };
      }
      case 'api disable':
      case 'api enable':
        accounts.setApiDisabled(verb === 'disable');
        return { api: verb === 'disable' ? 'disabled' : 'enabled' };
      case 'folder create': {
        const account = accountNamed(flags.account);
        return { folder_id: accounts.createFolder(account.id, flags.name ?? 'Folder') };
      }
      default:
        throw new UsageError(USAGE);
    }
  } finally {
    db.close();
  }
}
