import { useId, useRef, type ReactNode } from 'react';
import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';
import { useLocale } from '../i18n/i18n.js';
import { ErrorNote } from './error-note.js';
import { useModalDialog } from './use-modal-dialog.js';
import './confirm-dialog.css';

/**
 * A modal question before something that cannot be undone. The native
 * <dialog> in modal mode makes the page behind it inert and keeps Tab
 * inside; Escape cancels. Focus starts on Cancel, the safe choice, and goes
 * back where it was when the dialog closes.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  busy?: boolean;
  error?: IpcError | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const { t } = useLocale();

  useModalDialog(dialog, cancel);

  return (
    <dialog
      ref={dialog}
      className="dialog confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // Escape: let React decide, so the dialog and the state never disagree
        event.preventDefault();
        if (!props.busy) props.onCancel();
      }}
    >
      <h2 id={titleId} className="confirm-dialog__title">
        {props.title}
      </h2>
      <div id={bodyId} className="confirm-dialog__body">
        {props.children}
      </div>
      <ErrorNote error={props.error ?? null} />
      <div className="form__actions confirm-dialog__actions">
        <button ref={cancel} type="button" className="button" onClick={props.onCancel} disabled={props.busy}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button--danger" onClick={props.onConfirm} disabled={props.busy}>
          {props.busy ? (props.busyLabel ?? t('common.working')) : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
