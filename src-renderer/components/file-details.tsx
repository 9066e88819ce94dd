import { useEffect, useId, useRef, useState } from 'react';
import { describeErrorValue, type MediaFileDetail } from '../../src-shared/api/index.js';
import { formatBytes } from '../../src-shared/model/format.js';
import { visibilityOf } from '../../src-shared/model/visibility.js';
import { useAction, useQuery } from '../bridge/bridge-context.js';
import { describeConversion, formatCount, isConversionFinal, visibilityLabel } from '../text/file-columns.js';
import { useLocale } from '../i18n/i18n.js';
import { useStores } from '../store/stores.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { CopyLinkButtons } from './copy-link-buttons.js';
import { ErrorNote } from './error-note.js';
import { FileEditForm } from './file-edit-form.js';
import './file-details.css';

/** Between two status requests while a conversion is still moving: a few a minute out of the 60. */
export const STATUS_POLL_MS = 5_000;

/**
 * The conversion status of one file, asked again every few seconds while
 * it is pending or processing. It stops when the status is final, on an
 * error (the person can ask again), and when the panel closes.
 */
function useConversionStatus(accountId: string, fileId: string) {
  const { data, error, loading, reload } = useQuery('files:status', { accountId, fileId });
  const final = data !== undefined && isConversionFinal(data.conversion);
  useEffect(() => {
    if (!data || error || isConversionFinal(data.conversion)) return;
    const timer = setTimeout(reload, STATUS_POLL_MS);
    return () => clearTimeout(timer);
  }, [data, error, reload]);
  // "Check again" after an error follows it again from the click
  return { status: data, error, following: (loading || !error) && !final, refresh: reload };
}

/**
 * The side panel of one file: its facts, the conversion status, links,
 * the edit form and delete. Escape closes it (or leaves the edit form).
 */
export function FileDetails(props: {
  accountId: string;
  fileId: string;
  onClose: () => void;
  onChanged: (file: MediaFileDetail) => void;
  onDeleted: (fileId: string) => void;
}) {
  const { accountId, fileId } = props;
  const { files } = useStores();
  const detail = useQuery('files:get', { accountId, fileId });
  const conversion = useConversionStatus(accountId, fileId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState('');
  const remove = useAction();
  const open = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const file = detail.data;
  const { t, locale } = useLocale();

  // a newly chosen file: read its name first, as a person would look at the panel's title
  useEffect(() => {
    heading.current?.focus();
    setEditing(false);
    setSaved('');
  }, [fileId]);

  async function deleteFile() {
    const done = await remove.run(() => files.delete({ accountId, fileId }));
    if (done) {
      setConfirming(false);
      props.onDeleted(fileId);
    }
  }

  const name = file?.name || file?.filename || t('fileDetails.untitled');
  const facts: Array<[string, string]> = file
    ? [
        [t('fileDetails.storedAs'), file.filename],
        [t('fileDetails.type'), file.mime],
        [t('files.columns.size'), formatBytes(file.size_bytes, locale)],
        [t('files.columns.visibility'), visibilityLabel(file.visibility)],
        [t('files.columns.password'), file.password_protected ? t('fileDetails.passwordSet') : t('common.none')],
        [
          t('fileDetails.watchOnline'),
          file.allow_online_watch ? t('fileDetails.allowed') : t('fileDetails.notAllowed'),
        ],
        [t('files.columns.downloads'), formatCount(file.downloads, locale)],
        [t('files.columns.streamViews'), formatCount(file.stream_views, locale)],
      ]
    : [];
  if (file && file.description !== undefined) {
    facts.push([t('fileDetails.description'), file.description || t('common.none')]);
  }
  const conversionError = describeErrorValue(conversion.status?.conversion?.error);

  return (
    <section
      id="file-details"
      className="file-details card"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || confirming || event.defaultPrevented) return;
        event.preventDefault();
        if (editing) {
          setEditing(false);
          heading.current?.focus();
        } else props.onClose();
      }}
    >
      <div className="file-details__header">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          {name}
        </h2>
        <button
          type="button"
          className="button button--quiet button--small"
          aria-label={t('fileDetails.closeDetails')}
          onClick={props.onClose}
        >
          {t('fileDetails.close')}
        </button>
      </div>
      <p className="file-details__saved" role="status">
        {saved}
      </p>
      {detail.error && !file && (
        <>
          <ErrorNote error={detail.error} />
          <button type="button" className="button button--small" onClick={detail.reload}>
            {t('common.tryAgain')}
          </button>
        </>
      )}
      {!file && !detail.error && <p className="muted">{t('fileDetails.loading')}</p>}
      {file && editing && (
        <FileEditForm
          accountId={accountId}
          file={file}
          onCancel={() => {
            setEditing(false);
            heading.current?.focus();
          }}
          onSaved={(updated) => {
            detail.set(updated);
            props.onChanged(updated);
            setEditing(false);
            setSaved(t('fileDetails.saved'));
            heading.current?.focus();
          }}
        />
      )}
      {file && !editing && (
        <>
          <dl className="file-details__facts">
            {facts.map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {visibilityOf(file.visibility) === 'private' && !file.password_protected && (
            <p className="muted file-details__small">{t('visibility.privateMeans')}</p>
          )}

          <h3>{t('fileDetails.conversionTitle')}</h3>
          <p className="file-details__conversion" aria-live="polite">
            {conversion.status ? describeConversion(conversion.status.conversion) : t('fileDetails.checking')}
          </p>
          {conversion.status?.conversion?.updated_at && (
            <p className="muted file-details__small">
              {conversion.following
                ? t('fileDetails.lastChangeFollowing', { at: conversion.status.conversion.updated_at })
                : t('fileDetails.lastChange', { at: conversion.status.conversion.updated_at })}
            </p>
          )}
          {conversionError && <p className="field__error">{conversionError}</p>}
          {conversion.error && (
            <>
              <ErrorNote error={conversion.error} />
              <button type="button" className="button button--small" onClick={conversion.refresh}>
                {t('fileDetails.checkAgain')}
              </button>
            </>
          )}

          <h3>{t('fileDetails.links')}</h3>
          <CopyLinkButtons accountId={accountId} fileId={fileId}>
            <button
              type="button"
              className="button button--small"
              onClick={() => void open.run(() => files.openWatchPage({ accountId, fileId }, file.urls.watch))}
            >
              {t('fileDetails.openWatch')}
            </button>
          </CopyLinkButtons>
          <ErrorNote error={open.error} onDismiss={open.clearError} />

          <div className="form__actions file-details__actions">
            <button type="button" className="button button--primary" onClick={() => setEditing(true)}>
              {t('fileDetails.edit')}
            </button>
            <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
              {t('fileDetails.delete')}
            </button>
          </div>
        </>
      )}
      {confirming && file && (
        <ConfirmDialog
          title={t('fileDetails.deleteTitle', { name })}
          confirmLabel={t('fileDetails.deleteConfirm')}
          busyLabel={t('fileDetails.deleting')}
          busy={remove.busy}
          error={remove.error}
          onCancel={() => {
            remove.clearError();
            setConfirming(false);
          }}
          onConfirm={() => void deleteFile()}
        >
          <p>{t('fileDetails.deleteText')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
