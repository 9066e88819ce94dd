import type { AccountView, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import type { Flags } from './cli-args.js';
import { line, type CliIo } from './cli-output.js';
import type { CliContract } from './open-contract.js';

/** What a command group runs with: the contract (the same calls whoever owns the data folder), the flags, the streams. */
export interface CommandContext {
  contract: CliContract;
  flags: Flags;
  io: CliIo;
}

/** One command group's module: runs `command` (one of the words it answers to) with the words after it. */
export interface CommandGroup {
  run(command: string, rest: string[], context: CommandContext): Promise<number>;
}

/** The command's answer on stdout: `json` with --json, the sentence or table otherwise. */
export function output(context: CommandContext, json: unknown, human: () => string): void {
  line(context.io.stdout, context.flags.json ? JSON.stringify(json) : human());
}

/** The account a command means when none is named: the first one signed in. */
export async function defaultAccount(context: CommandContext): Promise<AccountView> {
  const [account] = await context.contract.invoke('account:list', {});
  if (!account) throw new Error('Not signed in. Run: media-sync login --base-url URL < token.txt');
  return account;
}

export async function readStdin(io: CliIo): Promise<string> {
  if (io.stdin.isTTY) return '';
  const pieces: Buffer[] = [];
  for await (const piece of io.stdin) pieces.push(Buffer.from(piece as Buffer));
  return Buffer.concat(pieces).toString('utf8').trim();
}

/** A queue item in a JSON answer. */
export function itemSummary(item: Pick<UploadItemView, 'id' | 'path' | 'state'>, link?: string | null) {
  return {
    id: item.id,
    path: item.path,
    state: item.state,
    fileId: item.state.kind === 'done' ? item.state.fileId : null,
    ...(link === undefined ? {} : { link }),
  };
}

/** Where a person watches an uploaded video, or opens any other file: the link the service gave for it. */
export function fileLink(file: { mime: string; urls: { page: string; watch: string } } | null): string | null {
  if (!file) return null;
  return file.mime.startsWith('video/') ? file.urls.watch : file.urls.page;
}
