import { useId } from 'react';
import { characterCount } from '../text/field-rules.js';
import './text-field.css';

/**
 * A labelled text input or textarea with its rule shown as the person types:
 * the error sits right under the field, is tied to it with aria-describedby
 * and marks it aria-invalid; a counter shows how much of the limit is used.
 */
export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
  hint?: string;
  max?: number;
  multiline?: boolean;
  type?: 'text' | 'password' | 'search' | 'url' | 'date';
  inputMode?: 'numeric' | 'decimal';
  autoComplete?: string;
  placeholder?: string;
  spellCheck?: boolean;
  /** beside `field` (a field nested under a choice) */
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const countId = `${id}-count`;
  const errorId = `${id}-error`;
  const describedBy =
    [props.error ? errorId : null, props.hint ? hintId : null, props.max ? countId : null].filter(Boolean).join(' ') ||
    undefined;
  const common = {
    id,
    value: props.value,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy,
    placeholder: props.placeholder,
    spellCheck: props.spellCheck,
  };
  return (
    <div className={props.className ? `field ${props.className}` : 'field'}>
      <label htmlFor={id} className="field__label">
        {props.label}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={4} onChange={(event) => props.onChange(event.target.value)} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete ?? 'off'}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
      {props.error && (
        <span id={errorId} className="field__error">
          {props.error}
        </span>
      )}
      {props.hint && (
        <small id={hintId} className="muted">
          {props.hint}
        </small>
      )}
      {props.max !== undefined && (
        <small id={countId} className="muted field__count">
          {characterCount(props.value, props.max)}
        </small>
      )}
    </div>
  );
}
