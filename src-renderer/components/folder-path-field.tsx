import { useEffect, useId, useRef, useState } from 'react';
import { useAction, useBridge } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import { ErrorNote } from './error-note.js';
import { FolderBrowser } from './folder-browser.js';
import './folder-path-field.css';
import { useLocale } from '../i18n/i18n.js';

/**
 * A folder path typed, or chosen with "Choose…": the system's folder picker
 * in the desktop app (app:pickFolder), the page's folder browser in a
 * browser (a page cannot read local paths). The core's reason a path was
 * refused (`error`) sits under the field, is tied to it and marks it
 * invalid; the field takes focus when one arrives, so it is read out.
 */
export function FolderPathField(props: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  placeholder?: string;
}) {
  const { capabilities } = useBridge();
  const { folders } = useStores();
  const pick = useAction();
  const { t } = useLocale();
  const [browsing, setBrowsing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  useEffect(() => {
    if (props.error) input.current?.focus();
  }, [props.error]);

  async function choose() {
    if (!capabilities.canPickFolder) return setBrowsing(true);
    const picked = await pick.run(() => folders.pick());
    if (picked) props.onChange(picked);
  }

  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {props.label}
      </label>
      <div className="folder-path-field__row">
        <input
          id={id}
          ref={input}
          type="text"
          required
          value={props.value}
          placeholder={props.placeholder}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => props.onChange(event.target.value)}
        />
        <button type="button" className="button" disabled={pick.busy} onClick={() => void choose()}>
          {t('folderPath.choose')}
        </button>
      </div>
      {props.error && (
        <span id={errorId} className="field__error">
          {props.error}
        </span>
      )}
      <small id={hintId} className="muted">
        {props.hint}
      </small>
      <ErrorNote error={pick.error} />
      {browsing && (
        <FolderBrowser
          title={t('folderPath.pickerTitle')}
          start={props.value.trim() || null}
          onChoose={(path) => {
            setBrowsing(false);
            props.onChange(path);
          }}
          onCancel={() => setBrowsing(false)}
        />
      )}
    </div>
  );
}
