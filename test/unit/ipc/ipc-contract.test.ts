import { describe, expect, it } from 'vitest';
import {
  AccountViewSchema,
  IPC_COMMANDS,
  IPC_EVENTS,
  UploadItemViewSchema,
  toUploadItemView,
  type IpcCommandName,
} from '../../../src-shared/ipc/ipc-contract.js';
import { DEFAULT_SETTINGS, SettingsChangeSchema, SettingsSchema } from '../../../src-shared/model/settings.js';
import { UploadItemSchema } from '../../../src-shared/model/upload-state.js';

const NAMESPACES = [
  'account',
  'folders',
  'uploads',
  'files',
  'imports',
  'conversions',
  'settings',
  'notifications',
  'support',
  'app',
];

const parse = <N extends IpcCommandName>(name: N, request: unknown) => IPC_COMMANDS[name].request.safeParse(request);

describe('the ipc contract', () => {
  it('names every command and event namespace:verb, in the namespaces the app has', () => {
    const names = [...Object.keys(IPC_COMMANDS), ...Object.keys(IPC_EVENTS)];
    for (const name of names) expect(name).toMatch(/^[a-z]+:[a-z][A-Za-z]*$/);
    expect(new Set(Object.keys(IPC_COMMANDS).map((name) => name.split(':')[0]))).toEqual(new Set(NAMESPACES));
  });

  it('refuses malformed requests with a reason, instead of passing them to the core', () => {
    // a pause ends at a time, or (null, absent) when resumed: never at Infinity or 'forever'
    expect(parse('uploads:pauseAll', { until: Infinity }).success).toBe(false);
    expect(parse('uploads:pauseAll', { until: 'forever' }).success).toBe(false);
    expect(parse('uploads:pauseAll', { until: Date.UTC(2026, 0, 1, 8) }).success).toBe(true);
    expect(parse('uploads:pauseAll', { until: null }).success).toBe(true);
    expect(parse('uploads:pauseAll', {}).success).toBe(true);
    // visibility is the app's word; the API's boolean is the api-client's
    expect(parse('files:update', { accountId: 'a', fileId: 'f1', changes: { visibility: true } }).success).toBe(false);
    expect(parse('files:update', { accountId: 'a', fileId: 'f1', changes: { visibility: 'public' } }).success).toBe(
      true,
    );
    expect(parse('files:list', { accountId: 'a', perPage: 30 }).success).toBe(false);
    expect(parse('files:list', { accountId: 'a', perPage: 50, search: 'x'.repeat(256) }).success).toBe(false);
    expect(parse('files:update', { accountId: 'a', fileId: 'f1', changes: { name: 'x'.repeat(256) } }).success).toBe(
      false,
    );
    expect(parse('files:get', { accountId: 'a', fileId: '../etc/passwd' }).success).toBe(false);
    const withCredentials = parse('imports:create', {
      accountId: 'a',
      body: { urls: ['https://user:pw@example.com/a.mp4'] },
    });
    expect(withCredentials.success).toBe(false);
    expect(JSON.stringify(withCredentials.error?.issues)).toContain('must not contain a user name or password');
    expect(parse('uploads:retry', { id: 'one' }).success).toBe(false);
  });

  it('lets no token out: an account view drops any token field a bug might add', () => {
    const view = AccountViewSchema.parse({
      id: 'acc-1',
      baseUrl: 'http://127.0.0.1:8787/api/v1',
      username: 'demo',
      plan: 'free',
      blocked: null,
      tokenStorage: 'a file only your user can read (0600)',
      token: 'mfs_secret',
    });
    expect(JSON.stringify(view)).not.toContain('mfs_secret');
  });

  it('lets no file password out: an upload view says only that there is one', () => {
    const item = {
      id: 1,
      accountId: 'acc-1',
      path: '/videos/a.mp4',
      fileName: 'a.mp4',
      size: 10,
      mtimeMs: 1,
      fingerprint: 'abc',
      visibility: null,
      metadata: { name: 'A', password: 'hunter2' },
      folderId: null,
      state: { kind: 'queued' },
      dzuuid: null,
      chunkSize: 90_000_000,
      ackedChunks: [],
      restarts: 0,
      finalSent: false,
      fileId: null,
      createdAt: 1,
      updatedAt: 1,
    };
    const view = toUploadItemView(UploadItemSchema.parse(item));
    expect(view.metadata).toEqual({ name: 'A', hasPassword: true });
    expect(JSON.stringify(view)).not.toContain('hunter2');
    // even a raw item pushed through the view schema by mistake loses the password
    expect(JSON.stringify(UploadItemViewSchema.parse(item))).not.toContain('hunter2');
  });

  it('fills every setting from defaults, and refuses values out of range', () => {
    expect(SettingsSchema.parse({})).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toEqual({
      concurrency: 3,
      bandwidthBytesPerSecond: null,
      chunkSizeBytes: 90_000_000,
      notifications: {
        uploadsDone: true,
        uploadFailed: true,
        importCompleted: true,
        importFailed: true,
        accountProblem: true,
        readyToWatch: true,
        dataDiskFull: true,
        folderProblem: true,
      },
      launchAtLogin: false,
      proxyUrl: null,
      updateUrl: 'https://updates.media-sync.example/desktop/',
      schedule: [],
      pauseOnBattery: false,
      language: 'system',
      removeFinishedAfterDays: 7,
      metered: { kind: 'pause' },
      pollIntervalSeconds: 60,
      notificationsSnoozed: null,
    });
    expect(SettingsSchema.parse({ language: 'de' }).language).toBe('de');
    // a language this version does not have falls back to the system's, keeping the other settings
    expect(SettingsSchema.parse({ language: 'xx', concurrency: 2 })).toMatchObject({
      language: 'system',
      concurrency: 2,
    });
    expect(SettingsChangeSchema.safeParse({ language: 'xx' }).success).toBe(false);
    expect(SettingsSchema.safeParse({ schedule: [{ days: ['mon'], from: '9:00', to: '18:00' }] }).success).toBe(false);
    expect(SettingsSchema.safeParse({ chunkSizeBytes: 100_000_000 }).success).toBe(false);
    expect(SettingsSchema.safeParse({ proxyUrl: 'socks5://127.0.0.1:1080' }).success).toBe(false);
    expect(SettingsSchema.safeParse({ updateUrl: 'file:///srv/updates/' }).success).toBe(false);
    // folders without change events are checked at one of the offered intervals, never in a loop
    expect(SettingsSchema.safeParse({ pollIntervalSeconds: 1 }).success).toBe(false);
    expect(SettingsSchema.parse({ pollIntervalSeconds: 300 }).pollIntervalSeconds).toBe(300);
    expect(parse('settings:update', { concurrency: 0 }).success).toBe(false);
    expect(parse('settings:update', { launchAtLogin: true }).data).toEqual({ launchAtLogin: true });
    expect(SettingsSchema.parse({ notifications: { uploadsDone: false } }).notifications).toEqual({
      ...DEFAULT_SETTINGS.notifications,
      uploadsDone: false,
    });
  });
});
