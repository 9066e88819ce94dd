import { useState } from 'react';
import type { UpdateStatus } from '../../src-shared/model/update-status.js';
import { useAction } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import { updateReadyText } from '../text/update-status-text.js';
import { ErrorNote } from './error-note.js';
import './update-banner.css';
import { useLocale } from '../i18n/i18n.js';

/**
 * "Restart to update": quits as a quit does (the queue is saved), installs,
 * and starts the new version. Only ever on this click: nothing restarts the
 * app by itself, so never in the middle of an upload.
 */
export function RestartToUpdateButton({ primary = false }: { primary?: boolean }) {
  const { updates } = useStores();
  const install = useAction();
  const { t } = useLocale();
  return (
    <>
      <button
        type="button"
        className={primary ? 'button button--primary' : 'button button--small'}
        disabled={install.busy}
        onClick={() => void install.run(() => updates.install())}
      >
        {install.busy ? t('updates.restarting') : t('updates.restart')}
      </button>
      <ErrorNote error={install.error} />
    </>
  );
}

/**
 * Under the header while a downloaded update waits: says so and offers the
 * restart, without a dialog and without taking focus. "Later" hides it for
 * this version until the page is opened again; Settings → Updates and the
 * tray still offer the restart, and the next quit installs it anyway.
 */
export function UpdateBanner({ status }: { status: UpdateStatus | undefined }) {
  const [later, setLater] = useState<string | null>(null);
  const { t } = useLocale();
  if (status?.state !== 'ready' || later === status.version) return null;
  return (
    <div className="banner banner--info update-banner" role="status">
      <span>{updateReadyText(status.version)}</span>
      <RestartToUpdateButton />
      <button type="button" className="button button--small button--quiet" onClick={() => setLater(status.version)}>
        {t('updates.later')}
      </button>
    </div>
  );
}
