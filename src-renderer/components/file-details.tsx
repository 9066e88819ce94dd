import { useEffect, useId, useRef, useState } from 'react';
import { describeErrorValue, type FileStatus, type MediaFileDetail } from '../../src-shared/api/index.js';
import { formatBytes } from '../../src-shared/model/format.js';
import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';
import { useAction, useBridge, useQuery } from '../bridge/bridge-context.js';
import { toIpcError } from '../bridge/bridge-error.js';
import { describeConversion, formatCount, isConversionFinal, visibilityLabel } from '../model/file-columns.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { CopyLinkButtons } from './copy-link-buttons.js';
import { ErrorNote } from './error-note.js';
import { FileEditForm } from './file-edit-form.js';
import './file-details.css';

/** Between two status requests while a conversion is still moving: a few a minute out of the 60. */
export const STATUS_POLL_MS = 5_000;

interface ConversionState {
  status: FileStatus | null;
  error: IpcError | null;
  following: boolean;
}

/**
 * The conversion status of one file, asked again every few seconds while
 * it is pending or processing. It stops when the status is final, on an
 * error (the person can ask again), and when the panel closes.
 */
function useConversionStatus(accountId: string, fileId: string) {
  const bridge = useBridge();
  const [state, setState] = useState<ConversionState>({ status: null, error: null, following: true });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      try {
        const status = await bridge.invoke('files:status', { accountId, fileId });
        if (stopped) return;
        const following = !isConversionFinal(status.conversion);
        setState({ status, error: null, following });
        if (following) timer = setTimeout(() => void check(), STATUS_POLL_MS);
      } catch (problem) {
        if (!stopped) setState((previous) => ({ ...previous, error: toIpcError(problem), following: false }));
      }
    };
    setState((previous) => ({ ...previous, following: true }));
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [bridge, accountId, fileId, generation]);

  return { ...state, refresh: () => setGeneration((value) => value + 1) };
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
  const bridge = useBridge();
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

  // a newly chosen file: read its name first, as a person would look at the panel's title
  useEffect(() => {
    heading.current?.focus();
    setEditing(false);
    setSaved('');
  }, [fileId]);

  async function deleteFile() {
    const done = await remove.run('files:delete', { accountId, fileId });
    if (done) {
      setConfirming(false);
      props.onDeleted(fileId);
    }
  }

  function openWatchPage(target: MediaFileDetail) {
    // the daemon cannot open a browser window for the page it serves: the page opens it itself
    if (bridge.shell === 'headless') window.open(target.urls.watch, '_blank', 'noopener');
    else void open.run('files:open', { accountId, fileId, kind: 'watch' });
  }

  const name = file?.name || file?.filename || 'File';
  const facts: Array<[string, string]> = file
    ? [
        ['Stored as', file.filename],
        ['Type', file.mime],
        ['Size', formatBytes(file.size_bytes)],
        ['Visibility', visibilityLabel(file.visibility)],
        ['Password', file.password_protected ? 'Protected with a password' : 'None'],
        ['Watch online', file.allow_online_watch ? 'Allowed' : 'Not allowed'],
        ['Downloads', formatCount(file.downloads)],
        ['Stream views', formatCount(file.stream_views)],
      ]
    : [];
  if (file && file.description !== undefined) facts.push(['Description', file.description || 'None']);
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
        <button type="button" className="button button--quiet button--small" onClick={props.onClose}>
          Close<span className="visually-hidden"> details</span>
        </button>
      </div>
      <p className="file-details__saved" role="status">
        {saved}
      </p>
      {detail.error && !file && (
        <>
          <ErrorNote error={detail.error} />
          <button type="button" className="button button--small" onClick={detail.reload}>
            Try again
          </button>
        </>
      )}
      {!file && !detail.error && <p className="muted">Loading details…</p>}
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
            setSaved('Changes saved.');
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

          <h3>Streaming conversion</h3>
          <p className="file-details__conversion" aria-live="polite">
            {conversion.status ? describeConversion(conversion.status.conversion) : 'Checking…'}
          </p>
          {conversion.status?.conversion?.updated_at && (
            <p className="muted file-details__small">
              Last change {conversion.status.conversion.updated_at}
              {conversion.following ? ' · checking every few seconds' : ''}
            </p>
          )}
          {conversionError && <p className="field__error">{conversionError}</p>}
          {conversion.error && (
            <>
              <ErrorNote error={conversion.error} />
              <button type="button" className="button button--small" onClick={conversion.refresh}>
                Check again
              </button>
            </>
          )}

          <h3>Links</h3>
          <CopyLinkButtons accountId={accountId} fileId={fileId}>
            <button type="button" className="button button--small" onClick={() => openWatchPage(file)}>
              Open watch page
            </button>
          </CopyLinkButtons>
          <ErrorNote error={open.error} onDismiss={open.clearError} />

          <div className="form__actions file-details__actions">
            <button type="button" className="button button--primary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          </div>
        </>
      )}
      {confirming && file && (
        <ConfirmDialog
          title={`Delete “${name}”?`}
          confirmLabel="Delete file"
          busyLabel="Deleting…"
          busy={remove.busy}
          error={remove.error}
          onCancel={() => {
            remove.clearError();
            setConfirming(false);
          }}
          onConfirm={() => void deleteFile()}
        >
          <p>The file and everything stored with it are removed from the server for good. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
