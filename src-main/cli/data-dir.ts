import { homedir } from 'node:os';
import { join } from 'node:path';

/** `--data-dir`, else MEDIA_SYNC_HOME, else the platform's per-user app data folder. */
export function resolveDataDir(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag) return flag;
  if (env['MEDIA_SYNC_HOME']) return env['MEDIA_SYNC_HOME'];
  if (process.platform === 'win32') return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'media-sync');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'media-sync');
  return join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'media-sync');
}
