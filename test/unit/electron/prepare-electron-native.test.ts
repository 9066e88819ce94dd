import { describe, expect, it } from 'vitest';
import { failureMessage, isUpToDate, type NativeStamp } from '../../../scripts/prepare-electron-native.js';

const WANTED: NativeStamp = { electron: '45.4.1', module: '12.11.1', platform: 'linux', arch: 'x64' };
const INSTALLED_AT = 1_000;

describe('prepare:electron-native', () => {
  it('reuses an output made for the same Electron, module, platform and arch after the module was installed', () => {
    expect(isUpToDate({ stamp: WANTED, builtAtMs: INSTALLED_AT + 1 }, WANTED, INSTALLED_AT)).toBe(true);
  });

  it('rebuilds when there is no output, no readable stamp, or the output is older than the installed module', () => {
    expect(isUpToDate(null, WANTED, INSTALLED_AT)).toBe(false);
    expect(isUpToDate({ stamp: null, builtAtMs: INSTALLED_AT + 1 }, WANTED, INSTALLED_AT)).toBe(false);
    expect(isUpToDate({ stamp: { electron: 45 }, builtAtMs: INSTALLED_AT + 1 }, WANTED, INSTALLED_AT)).toBe(false);
    expect(isUpToDate({ stamp: WANTED, builtAtMs: INSTALLED_AT - 1 }, WANTED, INSTALLED_AT)).toBe(false);
  });

  it('rebuilds after an upgrade of Electron or better-sqlite3, or on another platform or arch', () => {
    for (const change of [
      { electron: '46.0.0' },
      { module: '12.12.0' },
      { platform: 'darwin' },
      { arch: 'arm64' },
    ] satisfies Partial<NativeStamp>[]) {
      expect(isUpToDate({ stamp: { ...WANTED, ...change }, builtAtMs: INSTALLED_AT + 1 }, WANTED, INSTALLED_AT)).toBe(
        false,
      );
    }
  });

  it('explains a failure in one paragraph: what it needs, that node_modules is untouched, and the first line of the cause', () => {
    const message = failureMessage(WANTED, new Error('getaddrinfo ENOTFOUND electronjs.org\n    at stack line'));
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^Could not build better-sqlite3 12\.11\.1 for Electron 45\.4\.1 \(linux-x64\)\./);
    expect(message).toContain('https://electronjs.org/headers');
    expect(message).toMatch(/internet access/);
    expect(message).toMatch(/Nothing in node_modules was changed/);
    expect(message).toMatch(/Cause: getaddrinfo ENOTFOUND electronjs\.org$/);
  });
});
