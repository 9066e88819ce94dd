import type { App } from 'electron';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXECUTABLE_NAME, PRODUCT_NAME } from './app-identity.js';
import { HIDDEN_FLAG, type LaunchArgs } from './launch-args.js';

/** Starting the app when the person logs in, the way each platform does it. */
export interface LoginItems {
  set(enabled: boolean): Promise<void>;
  /** True when this process was started by the login item: it then stays in the tray. */
  startedAtLogin(launch: LaunchArgs): boolean;
}

export interface LoginItemsOptions {
  app: Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** `process.execPath`: the app's executable (Electron itself in a dev checkout) */
  execPath: string;
  /** not packaged: the app's folder or script that `electron <path>` must be given, else null */
  devAppPath: string | null;
  homeDir: string;
}

/**
 * `app.setLoginItemSettings` works on macOS and Windows only; on Linux it
 * does nothing. There the convention is an XDG autostart entry
 * (`$XDG_CONFIG_HOME/autostart/<app>.desktop`, `~/.config` when unset), which
 * GNOME, KDE, Xfce and the other XDG desktops run at login.
 *
 * Started at login the app stays in the tray: Windows and Linux pass
 * `--hidden`; macOS tells `wasOpenedAtLogin` (Electron 45 dropped
 * `openAsHidden`, which newer macOS ignored anyway).
 */
export function createLoginItems(options: LoginItemsOptions): LoginItems {
  const { app, platform } = options;
  return {
    async set(enabled) {
      if (platform === 'linux') return setXdgAutostart(options, enabled);
      if (platform === 'win32') {
        const args = [...devAppArgs(options), HIDDEN_FLAG];
        app.setLoginItemSettings({ openAtLogin: enabled, path: options.execPath, args });
        return;
      }
      app.setLoginItemSettings({ openAtLogin: enabled });
    },
    startedAtLogin(launch) {
      if (platform === 'darwin') return app.getLoginItemSettings().wasOpenedAtLogin;
      return launch.hidden;
    },
  };
}

/** Where the autostart entry lives. */
export function autostartPath(env: Record<string, string | undefined>, homeDir: string): string {
  // the spec says a relative XDG_CONFIG_HOME is invalid and must be ignored
  const configHome = env['XDG_CONFIG_HOME']?.startsWith('/') ? env['XDG_CONFIG_HOME'] : join(homeDir, '.config');
  return join(configHome, 'autostart', `${EXECUTABLE_NAME}.desktop`);
}

async function setXdgAutostart(options: LoginItemsOptions, enabled: boolean): Promise<void> {
  const path = autostartPath(options.env, options.homeDir);
  if (!enabled) {
    await rm(path, { force: true });
    return;
  }
  // an AppImage runs from a temporary mount: APPIMAGE is the file the person launched
  const executable = options.env['APPIMAGE'] || options.execPath;
  const entry = autostartEntry([executable, ...devAppArgs(options), HIDDEN_FLAG]);
  await mkdir(join(path, '..'), { recursive: true });
  // written whole or not at all: a half-written entry could start something else at login
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, entry, { mode: 0o644 });
  await rename(temporary, path);
}

function devAppArgs(options: LoginItemsOptions): string[] {
  return options.devAppPath === null ? [] : [options.devAppPath];
}

/**
 * A Desktop Entry (freedesktop.org Desktop Entry Specification 1.5) that
 * starts `command` at login. `Exec` is quoted by the spec's two layers: an
 * argument with a reserved character is put in double quotes with `"`, `` ` ``,
 * `$` and `\` escaped; `%` becomes `%%` (field codes); then the whole value,
 * being a `string`, has its backslashes escaped again.
 */
export function autostartEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${PRODUCT_NAME}`,
    'Comment=Uploads new files in your watched folders',
    `Exec=${command.map(execArgument).join(' ').replace(/\\/g, '\\\\')}`,
    `Icon=${EXECUTABLE_NAME}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

const RESERVED = /[\s"'\\><~|&;$*?#()`]/;

function execArgument(argument: string): string {
  // a line break cannot be written in a desktop entry value at all
  if (/[\n\r]/.test(argument)) throw new Error(`A path with a line break cannot start at login: ${argument}`);
  const escaped = argument.replace(/%/g, '%%');
  if (!RESERVED.test(escaped) && escaped !== '') return escaped;
  return `"${escaped.replace(/["`$\\]/g, (character) => `\\${character}`)}"`;
}
