import type { BaseWindow, Dialog, OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import { describe, expect, it } from 'vitest';
import { pickFolder } from '../../../src-main/electron/folder-picker.js';

/** Electron's dialog as far as the picker uses it: records each call and answers as the person did. */
function fakeDialog(answer: OpenDialogReturnValue) {
  const calls: Array<{ window: BaseWindow | null; options: OpenDialogOptions }> = [];
  const showOpenDialog = async (...args: [BaseWindow, OpenDialogOptions] | [OpenDialogOptions]) => {
    calls.push(args.length === 2 ? { window: args[0], options: args[1] } : { window: null, options: args[0] });
    return answer;
  };
  return { dialog: { showOpenDialog } as Pick<Dialog, 'showOpenDialog'>, calls };
}

const window = { id: 7 } as unknown as BaseWindow;

describe('the desktop folder picker', () => {
  it("asks the system's dialog for one folder, with a way to make a new one, modal to the window", async () => {
    const { dialog, calls } = fakeDialog({ canceled: false, filePaths: ['/home/ana/Videos/To upload'] });
    expect(await pickFolder(dialog, window, 'Choose a folder to watch')).toBe('/home/ana/Videos/To upload');
    expect(calls).toEqual([
      {
        window,
        options: { title: 'Choose a folder to watch', properties: ['openDirectory', 'createDirectory'] },
      },
    ]);
  });

  it('opens on its own when the app has no window (in the tray)', async () => {
    const { dialog, calls } = fakeDialog({ canceled: false, filePaths: ['C:\\Users\\ana\\Videos'] });
    expect(await pickFolder(dialog, null, 'Choose a folder to watch')).toBe('C:\\Users\\ana\\Videos');
    expect(calls.map((call) => call.window)).toEqual([null]);
  });

  it('answers null when the person cancels, or the dialog closes with no folder', async () => {
    const cancelled = fakeDialog({ canceled: true, filePaths: ['/ignored'] });
    expect(await pickFolder(cancelled.dialog, window, 'Choose a folder to watch')).toBeNull();
    const empty = fakeDialog({ canceled: false, filePaths: [] });
    expect(await pickFolder(empty.dialog, window, 'Choose a folder to watch')).toBeNull();
  });
});
