import { useState } from 'react';
import { Trans } from 'react-i18next';
import { useAction, useBridge, useQuery } from '../../bridge/bridge-context.js';
import { writeClipboard } from '../../bridge/clipboard.js';
import { saveDownload } from '../../bridge/download.js';
import { ErrorNote } from '../../components/error-note.js';
import { useStores } from '../../store/stores.js';
import { StatusNote } from '../../components/status-note.js';
import { useLocale } from '../../i18n/i18n.js';
import { SupportFileDialog } from './support-file-dialog.js';

/** Settings → Support: the diagnostics export and where the logs are. */
export function SupportSection() {
  const { app } = useStores();
  const action = useAction();
  const [exported, setExported] = useState('');
  const { t } = useLocale();

  const [supportFileOpen, setSupportFileOpen] = useState(false);

  async function exportDiagnostics() {
    const report = await action.run(() => app.diagnostics());
    if (!report) return;
    saveDownload(new Blob([report.json], { type: 'application/json' }), report.fileName);
    setExported(t('settings.support.exported', { file: report.fileName }));
  }

  return (
    <section className="settings__section card" aria-labelledby="support-title">
      <h2 id="support-title">{t('settings.support.title')}</h2>
      <p className="muted">{t('settings.support.intro')}</p>
      <div className="form__actions">
        <button type="button" className="button" onClick={() => setSupportFileOpen(true)}>
          {t('settings.supportFile.open')}
        </button>
        <button type="button" className="button" disabled={action.busy} onClick={() => void exportDiagnostics()}>
          {t('settings.support.export')}
        </button>
      </div>
      {supportFileOpen && (
        <SupportFileDialog
          onClose={() => setSupportFileOpen(false)}
          onSaved={(file) => {
            setSupportFileOpen(false);
            setExported(t('settings.supportFile.saved', { file }));
          }}
        />
      )}
      <ErrorNote error={action.error} />
      <StatusNote text={exported} />
      <LogsFolder />
    </section>
  );
}

/**
 * Where the app's log files are. The desktop app opens the folder; a page
 * in a browser cannot open a folder on the machine running the daemon, so it
 * shows the path to copy.
 */
function LogsFolder() {
  const { capabilities } = useBridge();
  const { app } = useStores();
  const info = useQuery('app:info', {});
  const action = useAction();
  const [copied, setCopied] = useState('');
  const { t } = useLocale();
  const folder = info.data?.logsDir;
  if (!folder) return <ErrorNote error={info.error} />;

  async function copyPath(path: string) {
    setCopied((await writeClipboard(path)) ? t('settings.logs.copied') : t('settings.logs.copyRefused'));
  }

  return (
    <div className="settings__logs">
      <h3>{t('settings.logs.title')}</h3>
      <p className="muted">{t('settings.logs.intro')}</p>
      {capabilities.canReveal ? (
        <button
          type="button"
          className="button"
          disabled={action.busy}
          onClick={() => void action.run(() => app.openLogsFolder())}
        >
          {t('settings.logs.open')}
        </button>
      ) : (
        <>
          <p>
            <Trans
              i18nKey="settings.logs.folder"
              values={{ folder }}
              components={{ code: <code className="settings__path" /> }}
            />
          </p>
          <button type="button" className="button" onClick={() => void copyPath(folder)}>
            {t('settings.logs.copy')}
          </button>
        </>
      )}
      <ErrorNote error={action.error} />
      <StatusNote text={copied} />
    </div>
  );
}
