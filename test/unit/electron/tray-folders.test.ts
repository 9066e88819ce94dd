import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { CoreLanguage } from '../../../src-main/common/i18n.js';
import { folderLine, trayMenuTemplate, trayState } from '../../../src-main/electron/tray-menu.js';
import type { FolderState, FolderStatus } from '../../../src-shared/model/folder-status.js';
import { queueStatus } from '../../helpers/queue-fixtures.js';

const running = queueStatus();

function folder(id: number, path: string, state: FolderState, paused = false): FolderStatus {
  return {
    id,
    accountId: 'account',
    path,
    paused,
    state,
    counts: { uploadedToday: 0, uploaded: 0, failed: 0, skipped: 0 },
    lastScanAt: null,
    recent: [],
  };
}

const noop = () => undefined;
const labels = (menu: MenuItemConstructorOptions[]) => menu.map((entry) => entry.label ?? entry.type);

describe('the tray: one line per watched folder', () => {
  it('says each state in words, with the folder’s own name', async () => {
    const states: FolderState[] = [
      { kind: 'watching', since: 1 },
      { kind: 'scanning', found: 1 },
      { kind: 'settling', files: 2 },
      { kind: 'uploading', files: 3, bytesDone: 0, bytesTotal: 10, secondsLeft: null },
      { kind: 'paused', by: 'folder', until: null },
      { kind: 'paused', by: 'schedule', until: 5 },
      { kind: 'problem', problem: 'missing', since: 1 },
      { kind: 'problem', problem: 'signedOut', since: 1 },
    ];
    expect(states.map((state) => folderLine(folder(1, '/home/ann/Camera', state)))).toEqual([
      'Camera — up to date',
      'Camera — scanning, 1 file found',
      'Camera — waiting for 2 files to settle',
      'Camera — uploading 3 files',
      'Camera — paused',
      'Camera — paused (schedule)',
      'Camera — folder not found',
      'Camera — sign in again',
    ]);
    const german = new CoreLanguage(() => ['de-DE']);
    await german.ready;
    expect(folderLine(folder(1, '/home/ann/Fotos', states[3]!), german)).toBe('Fotos — 3 Dateien werden hochgeladen');
    expect(folderLine(folder(1, '/home/ann/Fotos', states[6]!), german)).toBe('Fotos — Ordner nicht gefunden');
  });

  it('lists five folders, then how many more, each with Pause or Resume this folder', () => {
    const changes: Array<[string, number]> = [];
    const statuses = [
      folder(1, '/p/Photos', { kind: 'watching', since: 1 }),
      folder(2, '/p/Camera', { kind: 'paused', by: 'folder', until: null }, true),
      ...[3, 4, 5, 6, 7].map((id) => folder(id, `/p/F${id}`, { kind: 'watching', since: 1 })),
    ];
    const actions = {
      open: noop,
      pause: noop,
      resume: noop,
      openLink: noop,
      quit: noop,
      folders: {
        statuses,
        pause: (id: number) => void changes.push(['pause', id]),
        resume: (id: number) => void changes.push(['resume', id]),
      },
    };
    const menu = trayMenuTemplate(trayState(running, { running: [], waiting: 0, failed: 0 }, null), [], actions);
    expect(labels(menu)).toEqual([
      'up to date',
      'separator',
      'Photos — up to date',
      'Camera — paused',
      'F3 — up to date',
      'F4 — up to date',
      'F5 — up to date',
      'and 2 more folders',
      'separator',
      'Open Media Sync',
      'Pause uploads',
      'Recent uploads',
      'separator',
      'Quit',
    ]);
    const own = (index: number) => (menu[index]!.submenu as MenuItemConstructorOptions[])[0]!;
    expect([own(2).label, own(3).label]).toEqual(['Pause this folder', 'Resume this folder']);
    own(2).click!({} as never, undefined, {} as never);
    own(3).click!({} as never, undefined, {} as never);
    expect(changes).toEqual([
      ['pause', 1],
      ['resume', 2],
    ]);
    expect(menu[7]!.enabled).toBe(false);
  });

  it('lists no folder line when none is watched', () => {
    const actions = { open: noop, pause: noop, resume: noop, openLink: noop, quit: noop };
    const menu = trayMenuTemplate(trayState(running, { running: [], waiting: 0, failed: 0 }, null), [], {
      ...actions,
      folders: { statuses: [], pause: noop, resume: noop },
    });
    expect(labels(menu).slice(0, 3)).toEqual(['up to date', 'separator', 'Open Media Sync']);
  });
});
