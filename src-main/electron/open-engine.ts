import { join } from 'node:path';
import type { FileLog } from '../common/file-log.js';
import { Engine, type EngineOptions } from '../core/engine.js';
import { DATABASE_FILE } from '../storage/database.js';
import { databaseProblem } from '../storage/database-problem.js';
import { describeRepair, repairDatabase } from '../storage/database-repair.js';
import type { ElectronModule } from './electron-module.js';

/**
 * The engine on the data folder's database. A damaged one is said in a
 * dialog whose button keeps it aside and starts a fresh database
 * (storage/database-repair.ts), only when the person presses it; what was
 * kept is said next. Null when they choose to quit instead.
 */
export async function openEngine(
  dialog: ElectronModule['dialog'],
  log: FileLog,
  options: EngineOptions,
): Promise<Engine | null> {
  for (;;) {
    try {
      return await Engine.open(options);
    } catch (error) {
      const problem = databaseProblem(error, join(options.dataDir, DATABASE_FILE));
      if (problem?.kind !== 'damaged') throw problem ?? error;
      log.error(problem.message);
      const { response } = await dialog.showMessageBox({
        type: 'error',
        title: 'Media Sync cannot start',
        message: problem.summary,
        detail: problem.advice,
        buttons: ['Keep a copy aside and start with a fresh database', 'Quit'],
        defaultId: 1,
        cancelId: 1,
      });
      if (response !== 0) return null;
      const report = describeRepair(repairDatabase(options.dataDir, { nativeBinding: options.nativeBinding }));
      log.warn(report);
      await dialog.showMessageBox({
        type: 'info',
        title: 'Media Sync',
        message: 'Media Sync has a fresh database.',
        detail: report,
        buttons: ['OK'],
      });
    }
  }
}
