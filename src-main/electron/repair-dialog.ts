import type { FileLog } from '../common/file-log.js';
import type { DatabaseProblem } from '../storage/database-problem.js';
import { describeRepair, repairDatabase } from '../storage/database-repair.js';
import type { ElectronModule } from './electron-module.js';

/**
 * A damaged database, said in a dialog whose button keeps it aside and
 * starts a fresh database (storage/database-repair.ts), only when the person
 * presses it; what was kept is said next. False when they choose to quit
 * instead (createCore's `repair`).
 */
export async function askToRepair(
  problem: DatabaseProblem,
  dialog: ElectronModule['dialog'],
  log: FileLog,
  { dataDir, nativeBinding }: { dataDir: string; nativeBinding?: string },
): Promise<boolean> {
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: 'Media Sync cannot start',
    message: problem.summary,
    detail: problem.advice,
    buttons: ['Keep a copy aside and start with a fresh database', 'Quit'],
    defaultId: 1,
    cancelId: 1,
  });
  if (response !== 0) return false;
  const report = describeRepair(repairDatabase(dataDir, { nativeBinding }));
  log.warn(report);
  await dialog.showMessageBox({
    type: 'info',
    title: 'Media Sync',
    message: 'Media Sync has a fresh database.',
    detail: report,
    buttons: ['OK'],
  });
  return true;
}
