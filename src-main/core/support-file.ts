import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import type { Settings } from '../../src-shared/model/settings.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import type { AccountView, QueueStatus } from '../../src-shared/ipc/ipc-contract.js';
import type { RequestRecord } from '../api-client/request-log.js';
import { NamePlaceholders } from '../common/name-placeholders.js';
import { scrubSecrets, stripQueryStrings } from '../common/scrub-secrets.js';
import { writeZip, type ZipEntry } from '../common/zip-writer.js';
import { nodeCrypto } from '../common/lazy-builtins.js';

/** What a person chooses for a support file. */
export interface SupportFileRequest {
  /** the log's last days */
  days: number;
  /** keep file and folder names as they are */
  includeNames: boolean;
}

/**
 * What a support file is made of, read from the core at the moment it is
 * made: plain values and the log folder, not the core itself.
 */
export interface SupportSources {
  now: number;
  app: { version: string; shell: 'electron' | 'headless'; dataDir: string };
  settings: Settings;
  accounts: readonly AccountView[];
  folders: readonly WatchedFolder[];
  folderStatuses: readonly FolderStatus[];
  queue: {
    status: QueueStatus;
    counts: Partial<Record<string, number>>;
    unfinished: readonly UploadItem[];
    /** the newest failures, newest first */
    failed: readonly UploadItem[];
  };
  /** items whose names may be in the log: the unfinished ones and those changed in the window */
  recentItems: readonly UploadItem[];
  requests: ReadonlyArray<{ accountId: string; records: readonly RequestRecord[] }>;
  /** the folder of the log files; null: none */
  logsDir: string | null;
  /** every secret the core holds now (tokens, file passwords not yet set) */
  secrets: readonly string[];
  /** the log's own scrub, with every secret it was told (the daemon's session key besides the tokens) */
  scrub?: (text: string) => string;
}

export interface SupportFile {
  fileName: string;
  entries: Array<{ name: string; size: number }>;
  zip: Buffer;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A log line starts with its ISO time (common/file-log.ts). */
const LINE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)\s/;

/**
 * The zip a person sends to support (docs/ui.md, Support and logs): the
 * log's last `days`, the app, its settings, folders, queue, accounts and
 * last requests, each entry scrubbed of every secret and query string and,
 * unless `includeNames`, with every file and folder name replaced by a
 * stand-in (common/name-placeholders.ts). A README entry says what was cut.
 */
export async function buildSupportFile(sources: SupportSources, request: SupportFileRequest): Promise<SupportFile> {
  const names = new NamePlaceholders(nodeCrypto().randomBytes(32));
  if (!request.includeNames) {
    names.addPath(sources.app.dataDir);
    if (sources.logsDir) names.addPath(sources.logsDir);
    for (const folder of sources.folders) names.addPath(folder.path);
    for (const item of [...sources.queue.unfinished, ...sources.queue.failed, ...sources.recentItems]) {
      names.addPath(item.path);
      names.addName(item.fileName);
    }
  }
  const redact = (text: string) => {
    const scrubbed = stripQueryStrings(scrubSecrets(sources.scrub?.(text) ?? text, sources.secrets));
    return request.includeNames ? scrubbed : names.hide(scrubbed);
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const created = new Date(sources.now);
  const texts: Array<{ name: string; text: string }> = [
    { name: 'README.txt', text: readme(request, created) },
    {
      name: 'app.json',
      text: redact(
        json({
          createdAt: created.toISOString(),
          version: sources.app.version,
          shell: sources.app.shell,
          platform: process.platform,
          arch: process.arch,
          node: process.version,
          dataDir: sources.app.dataDir,
          logDays: request.days,
          namesIncluded: request.includeNames,
        }),
      ),
    },
    { name: 'settings.json', text: redact(json(sources.settings)) },
    {
      name: 'accounts.json',
      text: redact(
        json(
          sources.accounts.map((account) => ({
            id: account.id,
            baseUrl: account.baseUrl,
            plan: account.plan,
            blocked: account.blocked,
            tokenStorage: account.tokenStorage,
          })),
        ),
      ),
    },
    {
      name: 'folders.json',
      text: redact(
        json(
          sources.folders.map((folder) => ({
            ...folder,
            status: sources.folderStatuses.find((status) => status.id === folder.id) ?? null,
          })),
        ),
      ),
    },
    {
      name: 'queue.json',
      text: redact(
        json({
          status: sources.queue.status,
          counts: sources.queue.counts,
          unfinished: sources.queue.unfinished.map(supportItem),
          failed: sources.queue.failed.map(supportItem),
        }),
      ),
    },
    { name: 'requests.json', text: redact(json(sources.requests)) },
    ...(await logTexts(sources.logsDir, sources.now - request.days * DAY_MS)).map(({ name, text }) => ({
      name,
      text: redact(text),
    })),
  ];
  const entries: ZipEntry[] = texts.map(({ name, text }) => ({ name, data: Buffer.from(text, 'utf8') }));
  const stamp = created.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return {
    fileName: `media-sync-support-${stamp}.zip`,
    entries: entries.map(({ name, data }) => ({ name, size: data.length })),
    zip: writeZip(entries, created),
  };
}

/** An upload without what is not support's business: its password (the metadata) and fingerprint. */
function supportItem(item: UploadItem) {
  const { metadata: _metadata, fingerprint: _fingerprint, ...rest } = item;
  return rest;
}

/**
 * The log files' lines written since `since`, one entry per file
 * (`logs/main.log`, `logs/main.1.log` …); a file untouched since then is
 * left out whole. Lines without a time (none are written so) stay with
 * their file.
 */
async function logTexts(dir: string | null, since: number): Promise<Array<{ name: string; text: string }>> {
  if (!dir) return [];
  const files = await readdir(dir).catch(() => [] as string[]);
  const texts: Array<{ name: string; text: string }> = [];
  for (const file of files.filter((name) => name.endsWith('.log')).sort()) {
    const path = join(dir, file);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || info.mtimeMs < since) continue;
    const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => {
      const time = LINE_TIME.exec(line)?.[1];
      return line !== '' && (time === undefined || Date.parse(time) >= since);
    });
    if (lines.length > 0) texts.push({ name: `logs/${file}`, text: `${lines.join('\n')}\n` });
  }
  return texts;
}

/** What the README entry says: what is in the zip and what was taken out. */
function readme(request: SupportFileRequest, created: Date): string {
  return [
    `Media Sync support file, made ${created.toISOString()}.`,
    '',
    `logs/          the app's log, the last ${request.days} day(s)`,
    'app.json       version, platform, the data folder',
    'settings.json  the settings',
    'accounts.json  each account: its server (base URL) and plan',
    'folders.json   the watched folders, their options and state',
    'queue.json     the upload queue: counts, the unfinished uploads and the last failures',
    'requests.json  the last requests to each server: method, path, status, request id, time',
    '',
    'Removed from every entry: API tokens, the daemon session key, file passwords,',
    'cookies, Authorization headers and the query strings of URLs and request paths',
    '(each replaced by [redacted]).',
    request.includeNames
      ? 'File and folder names are included as they are (the person chose "include file names").'
      : 'File and folder names are replaced by stand-ins such as name-3f9a1c.jpg: the same name has the\n' +
        'same stand-in everywhere in this zip, the extension is kept, and the stand-ins cannot be\n' +
        'turned back into names (a random key made for this zip alone, never saved).',
    '',
  ].join('\n');
}
