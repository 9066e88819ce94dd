import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from '../../../src-main/electron/app-menu.js';

const roles = (template: ReturnType<typeof appMenuTemplate>) => template.map((item) => item.role ?? item.label);
const noop = { openLogsFolder: () => undefined };

describe('the application menu', () => {
  it('has the standard Edit menu everywhere, so copy and paste work in the token field on macOS', () => {
    expect(roles(appMenuTemplate('darwin', true, noop))).toEqual([
      'appMenu',
      'fileMenu',
      'editMenu',
      'View',
      'windowMenu',
      'help',
    ]);
    expect(roles(appMenuTemplate('linux', true, noop))).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
  });

  it('offers developer tools only in a dev checkout, and the logs folder in Help', () => {
    const viewRoles = (packaged: boolean) =>
      (appMenuTemplate('win32', packaged, noop)[2]!.submenu as Array<{ role?: string }>).map((item) => item.role);
    expect(viewRoles(true)).not.toContain('toggleDevTools');
    expect(viewRoles(false)).toContain('toggleDevTools');
    let opened = 0;
    const help = appMenuTemplate('linux', true, { openLogsFolder: () => opened++ }).at(-1)!;
    const item = (help.submenu as Array<{ label?: string; click?: () => void }>)[0]!;
    expect(item.label).toBe('Open Logs Folder');
    item.click!();
    expect(opened).toBe(1);
  });
});
