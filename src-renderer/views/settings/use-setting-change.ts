import { useState } from 'react';
import type { SettingsChange } from '../../../src-shared/model/settings.js';
import { useAction } from '../../bridge/bridge-context.js';
import { useStores } from '../../store/stores.js';

/**
 * A switch that applies as it is flipped, as the language does: the change
 * is saved at once and the settings store takes the answer. `saved` says
 * the last change was kept, until the next one starts.
 */
export function useSettingChange() {
  const stores = useStores();
  const action = useAction();
  const [saved, setSaved] = useState(false);

  async function change(settings: SettingsChange) {
    setSaved(false);
    const updated = await action.run('settings:update', settings);
    if (!updated) return;
    stores.settings.put(updated);
    setSaved(true);
  }

  return { change, saved, busy: action.busy, error: action.error };
}
