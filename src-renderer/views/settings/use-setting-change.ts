import { useState } from 'react';
import type { SettingsChange } from '../../../src-shared/model/settings.js';
import { useAction } from '../../bridge/bridge-context.js';
import { useStores } from '../../store/stores.js';

/**
 * A switch that applies as it is flipped, as the language does: the change
 * is saved at once by the settings store. `pending` is the
 * change on its way, for the switch to show meanwhile (and to go back if it
 * is refused); `saved` says the last change was kept, until the next one.
 */
export function useSettingChange() {
  const stores = useStores();
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState<SettingsChange | null>(null);

  async function change(settings: SettingsChange) {
    setSaved(false);
    setPending(settings);
    const updated = await action.run(() => stores.settings.update(settings));
    setPending(null);
    if (updated) setSaved(true);
  }

  return { change, pending, saved, busy: action.busy, error: action.error };
}
