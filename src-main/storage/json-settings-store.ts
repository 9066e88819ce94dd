import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../../src-shared/model/settings.js';
import type { SettingsStore } from '../core/ports.js';

/**
 * Settings of `media-sync serve` and of a CLI command that holds the data
 * folder: `settings.json` there, `{"settings": {…}}` as conf wrote it before
 * (other keys in the file are kept). Read once when a core starts, written
 * whole at each change, through a rename so a crash never leaves half a file.
 * A missing or unreadable file reads as no settings: AppCore parses what it
 * gets and falls back to the defaults, and the next change writes a good one.
 */
export class JsonSettingsStore implements SettingsStore {
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'settings.json');
  }

  read(): unknown {
    return this.file()['settings'] ?? {};
  }

  write(settings: Settings): void {
    writeFileSync(`${this.path}.tmp`, `${JSON.stringify({ ...this.file(), settings }, null, '\t')}\n`, {
      mode: 0o600,
    });
    renameSync(`${this.path}.tmp`, this.path);
  }

  private file(): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }
}
