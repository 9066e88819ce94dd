import type { MenuItemConstructorOptions } from 'electron';
import { CoreLanguage } from '../common/i18n.js';
import { PRODUCT_NAME } from './app-identity.js';

export interface AppMenuActions {
  openLogsFolder(): void;
}

/**
 * The application menu. On macOS copy and paste (even in the token field)
 * work only through an Edit menu with the standard roles, so the app gets
 * Electron's roles rather than a menu of its own making. Developer tools
 * only in a dev checkout. On Windows and Linux the window hides the bar
 * until Alt is pressed; the shortcuts work either way.
 */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  isPackaged: boolean,
  actions: AppMenuActions,
  /** the core's language for the menus of its own making (Electron names the roles' items) */
  language: Pick<CoreLanguage, 't'> = new CoreLanguage(),
) {
  const { t } = language;
  const view: MenuItemConstructorOptions = {
    label: t('core.menu.view'),
    submenu: [
      ...(isPackaged ? [] : ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as const)),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: t('core.menu.openLogsFolder'), click: () => actions.openLogsFolder() }],
  };
  const template: MenuItemConstructorOptions[] =
    platform === 'darwin'
      ? [
          { role: 'appMenu', label: PRODUCT_NAME },
          { role: 'fileMenu' },
          { role: 'editMenu' },
          view,
          { role: 'windowMenu' },
          help,
        ]
      : [{ role: 'fileMenu' }, { role: 'editMenu' }, view, { role: 'windowMenu' }, help];
  return template;
}
