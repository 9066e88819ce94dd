import type { AppErrorCode } from '../../src-shared/ipc/app-error-codes.js';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type DragEvent,
  type ReactNode,
} from 'react';
import { ContractError } from '../../src-shared/ipc/contract-client.js';
import type { AccountView, IpcError, IpcResult, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { DROP_PATH } from '../../src-shared/ipc/ws-paths.js';
import { sessionKeyHeader } from '../bridge/session-key.js';
import { toIpcError, useBridge } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import { accountLabel } from '../text/account-label.js';
import { t, useLocale } from '../i18n/i18n.js';
import { ErrorNote } from './error-note.js';
import './drop-upload.css';

interface DropUploadApi {
  /** queues these files for the current account */
  addFiles(files: File[]): Promise<void>;
  busy: boolean;
}

const DropUploadContext = createContext<DropUploadApi | null>(null);

/**
 * Files dropped anywhere on the window are uploaded to the current account.
 * In Electron the shell knows each file's path, and the core reads it from
 * disk; in a browser it does not, so each file is streamed to the daemon
 * (`POST /drop`), which keeps a copy until the upload is done.
 */
export function DropUpload({ account, children }: { account: AccountView; children: ReactNode }) {
  const bridge = useBridge();
  const { queue } = useStores();
  useLocale();
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<IpcError | null>(null);
  // dragenter/dragleave fire for every child crossed: count them to know when the drag really left
  const depth = useRef(0);

  const addFiles = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      setBusy(true);
      setError(null);
      let added = 0;
      try {
        const paths = files.map((file) => bridge.pathForFile(file));
        if (paths.every((path): path is string => path !== null)) {
          setStatus(t('drop.adding', { count: files.length }));
          added = (await queue.addPaths(account.id, paths)).length;
        } else {
          for (const [index, file] of files.entries()) {
            setStatus(t('drop.sending', { name: file.name, index: index + 1, total: files.length }));
            added += (await sendToDaemon(file, account.id)).length;
          }
        }
        setStatus(t('drop.added', { count: added, account: accountLabel(account) }));
      } catch (problem) {
        setError(toIpcError(problem));
        setStatus(added > 0 ? t('drop.addedBeforeProblem', { count: added }) : '');
      } finally {
        setBusy(false);
      }
    },
    [bridge, queue, account],
  );

  // the outcome of a drop stays a few seconds; the queue shows the files themselves
  useEffect(() => {
    if (busy || !status) return;
    const timer = setTimeout(() => setStatus(''), 8_000);
    return () => clearTimeout(timer);
  }, [busy, status]);

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

  return (
    <DropUploadContext.Provider value={{ addFiles, busy }}>
      <div
        className="drop-upload"
        onDragEnter={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          depth.current++;
          setDragging(true);
        }}
        onDragOver={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={() => {
          depth.current = Math.max(0, depth.current - 1);
          if (depth.current === 0) setDragging(false);
        }}
        onDrop={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          depth.current = 0;
          setDragging(false);
          void addFiles([...event.dataTransfer.files]);
        }}
      >
        {children}
        {dragging && (
          <div className="drop-upload__overlay" aria-hidden="true">
            <div className="drop-upload__target">
              <strong>{t('drop.dropToUpload')}</strong>
              <span>{t('drop.toAccount', { account: accountLabel(account) })}</span>
            </div>
          </div>
        )}
        <div className="drop-upload__status">
          <p role="status" className={status ? 'drop-upload__message' : 'visually-hidden'}>
            {status}
          </p>
          <ErrorNote error={error} onDismiss={() => setError(null)} />
        </div>
      </div>
    </DropUploadContext.Provider>
  );
}

/** The keyboard's way to what dropping does: pick files in the system's dialog. */
export function AddFilesButton({ className }: { className?: string }) {
  const api = useContext(DropUploadContext);
  const input = useRef<HTMLInputElement>(null);
  useLocale();
  if (!api) return null;
  return (
    <>
      <button
        type="button"
        className={className ?? 'button'}
        disabled={api.busy}
        onClick={() => input.current?.click()}
      >
        {t('drop.addFiles')}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={t('drop.filesToUpload')}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          void api.addFiles(files);
        }}
      />
    </>
  );
}

/**
 * Streams one file to the daemon, which queues it and answers with the
 * contract's result for `uploads:addPaths`; anything else (a page whose
 * session ended, a proxy's error) is said as a refusal with its status.
 */
async function sendToDaemon(file: File, accountId: string): Promise<UploadItemView[]> {
  const query = new URLSearchParams({ name: file.name, account: accountId });
  let response: Response;
  try {
    response = await fetch(`${DROP_PATH}?${query}`, {
      method: 'POST',
      body: file,
      headers: { 'Content-Type': 'application/octet-stream', ...sessionKeyHeader() },
    });
  } catch {
    throw new ContractError({
      code: 'DISCONNECTED',
      message: t('drop.sendFailed', { name: file.name }),
      requestId: null,
    });
  }
  const result = (await response.json().catch(() => null)) as IpcResult<UploadItemView[]> | null;
  if (typeof result?.ok !== 'boolean') {
    const message = t('drop.refused', { name: file.name, status: response.status });
    throw new ContractError({ code: 'BAD_RESPONSE' satisfies AppErrorCode, message, requestId: null });
  }
  if (!result.ok) throw new ContractError(result.error);
  return result.value;
}
