import type { BaseWindow, Dialog, OpenDialogOptions } from 'electron';

/**
 * The desktop's folder picker for ShellPorts.pickFolder (app:pickFolder):
 * the system's own dialog, where a person can also make a new folder. With a
 * window it is modal to it (a sheet on macOS); without one (the app is in the
 * tray) it stands alone. Resolves to the chosen folder, or null when the
 * person cancelled.
 */
export async function pickFolder(
  dialog: Pick<Dialog, 'showOpenDialog'>,
  window: BaseWindow | null,
  title: string,
): Promise<string | null> {
  const options: OpenDialogOptions = { title, properties: ['openDirectory', 'createDirectory'] };
  const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
