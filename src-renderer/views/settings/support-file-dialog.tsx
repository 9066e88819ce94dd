import { useId, useRef, useState } from 'react';
import { SUPPORT_FILE_DAYS } from '../../../src-shared/ipc/ipc-contract.js';
import { formatBytes } from '../../../src-shared/model/format.js';
import { useAction, useQuery } from '../../bridge/bridge-context.js';
import { saveDownload } from '../../bridge/download.js';
import { ErrorNote } from '../../components/error-note.js';
import { useModalDialog } from '../../components/use-modal-dialog.js';
import { useLocale } from '../../i18n/i18n.js';
import { useStores } from '../../store/stores.js';
import '../../components/confirm-dialog.css';
import './support-file-dialog.css';

/** The days of log a person can choose; the default (3) among them. */
const DAY_CHOICES = [1, SUPPORT_FILE_DAYS.default, 7, 14, SUPPORT_FILE_DAYS.max];

/**
 * "Save a support file…" (docs/ui.md, Support and logs): the days of log
 * and whether to keep file names, what the zip will hold with each entry's
 * size and the zip's, then Save. The zip is built in the core and saved as
 * a download: in a browser to the downloads, in the desktop app where the
 * system's save dialog says. `onSaved` gets the file's name.
 */
export function SupportFileDialog({ onClose, onSaved }: { onClose: () => void; onSaved: (fileName: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const first = useRef<HTMLSelectElement>(null);
  const titleId = useId();
  const { app } = useStores();
  const { t, locale } = useLocale();
  const [days, setDays] = useState<number>(SUPPORT_FILE_DAYS.default);
  const [includeNames, setIncludeNames] = useState(false);
  const preview = useQuery('support:preview', { days, includeNames });
  const save = useAction();
  useModalDialog(dialog, first);

  async function saveFile() {
    const file = await save.run(() => app.supportFile({ days, includeNames }));
    if (!file) return;
    const bytes = Uint8Array.from(atob(file.data), (char) => char.charCodeAt(0));
    saveDownload(new Blob([bytes], { type: 'application/zip' }), file.fileName);
    onSaved(file.fileName);
  }

  return (
    <dialog
      ref={dialog}
      className="dialog confirm-dialog support-file-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!save.busy) onClose();
      }}
    >
      <h2 id={titleId} className="confirm-dialog__title">
        {t('settings.supportFile.title')}
      </h2>
      <p className="muted">{t('settings.supportFile.intro')}</p>
      <label className="field">
        <span>{t('settings.supportFile.days')}</span>
        <select ref={first} value={days} onChange={(event) => setDays(Number(event.target.value))}>
          {DAY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {t('settings.supportFile.dayChoice', { count: choice })}
            </option>
          ))}
        </select>
      </label>
      <label className="field--inline">
        <input type="checkbox" checked={includeNames} onChange={(event) => setIncludeNames(event.target.checked)} />
        <span>{t('settings.supportFile.includeNames')}</span>
      </label>
      <p className="muted">
        {includeNames ? t('settings.supportFile.namesKept') : t('settings.supportFile.namesReplaced')}
      </p>
      <h3>{t('settings.supportFile.contents')}</h3>
      {preview.data ? (
        <>
          <table className="support-file-dialog__entries">
            <thead>
              <tr>
                <th scope="col">{t('settings.supportFile.entry')}</th>
                <th scope="col">{t('settings.supportFile.size')}</th>
              </tr>
            </thead>
            <tbody>
              {preview.data.entries.map((entry) => (
                <tr key={entry.name}>
                  <td>
                    <code>{entry.name}</code>
                  </td>
                  <td>{formatBytes(entry.size, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p role="status">{t('settings.supportFile.zipSize', { size: formatBytes(preview.data.size, locale) })}</p>
        </>
      ) : (
        !preview.error && <p role="status">{t('settings.supportFile.preparing')}</p>
      )}
      <ErrorNote error={preview.error ?? save.error} />
      <div className="form__actions confirm-dialog__actions">
        <button type="button" className="button" onClick={onClose} disabled={save.busy}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void saveFile()}
          disabled={save.busy || !preview.data}
        >
          {save.busy ? t('common.working') : t('settings.supportFile.save')}
        </button>
      </div>
    </dialog>
  );
}
