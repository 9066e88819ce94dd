import { AppCore, type AppCoreOptions } from '../../src-main/core/app-core.js';
import type { Engine } from '../../src-main/core/engine.js';
import { MemorySettingsStore, NO_DESKTOP } from '../../src-main/core/ports.js';

/** AppCore on `engine` as the headless daemon builds it (settings in memory, no desktop), with a test's changes. */
export function createAppCore(engine: Engine, dataDir: string, options: Partial<AppCoreOptions> = {}): AppCore {
  return new AppCore({
    engine,
    settings: new MemorySettingsStore(),
    shell: NO_DESKTOP,
    info: { version: '0.1.0', shell: 'headless', dataDir },
    tokenStorage: 'a file only your user can read (0600)',
    ...options,
  });
}
