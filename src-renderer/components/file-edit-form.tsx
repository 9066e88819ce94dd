import { useMemo, useState, type FormEvent } from 'react';
import type { MediaFileDetail } from '../../src-shared/api/index.js';
import { useAction } from '../bridge/bridge-context.js';
import {
  DESCRIPTION_MAX,
  FILE_NAME_MAX,
  draftFromFile,
  fileChanges,
  validateFileDraft,
  type FileEditDraft,
  type PasswordAction,
} from '../model/file-edit.js';
import { ErrorNote } from './error-note.js';
import { TextField } from './text-field.js';
import { RadioOption } from './radio-option.js';
import { VisibilityFields } from './visibility-fields.js';

/**
 * Everything PATCH /files/{id} can change, checked with its own rules as the
 * person types. Save sends only what changed and stays disabled while a
 * field is invalid or nothing changed.
 */
export function FileEditForm(props: {
  accountId: string;
  file: MediaFileDetail;
  onSaved: (file: MediaFileDetail) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<FileEditDraft>(() => draftFromFile(props.file));
  const action = useAction();
  const errors = useMemo(() => validateFileDraft(draft), [draft]);
  const changes = useMemo(() => fileChanges(props.file, draft), [props.file, draft]);
  const invalid = Object.keys(errors).length > 0;
  const unchanged = Object.keys(changes).length === 0;
  const update = (patch: Partial<FileEditDraft>) => setDraft((previous) => ({ ...previous, ...patch }));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (invalid || unchanged) return;
    const saved = await action.run('files:update', { accountId: props.accountId, fileId: props.file.id, changes });
    if (saved) props.onSaved(saved);
  }

  const passwordChoices: Array<{ value: PasswordAction; label: string }> = [
    { value: 'keep', label: props.file.password_protected ? 'Keep the current password' : 'No password' },
    { value: 'set', label: props.file.password_protected ? 'Change the password' : 'Set a password' },
  ];
  if (props.file.password_protected) passwordChoices.push({ value: 'remove', label: 'Remove the password' });

  return (
    <form className="form file-edit" aria-label={`Edit ${props.file.name}`} onSubmit={(event) => void save(event)}>
      <TextField
        label="Name"
        value={draft.name}
        max={FILE_NAME_MAX}
        error={errors.name}
        onChange={(name) => update({ name })}
      />
      <TextField
        label="Description"
        multiline
        value={draft.description}
        max={DESCRIPTION_MAX}
        error={errors.description}
        hint={props.file.description === undefined ? 'The server did not say the current description.' : undefined}
        onChange={(description) => update({ description })}
      />
      <VisibilityFields name="visibility" value={draft} onChange={update} />
      <fieldset className="choice-group">
        <legend>Password</legend>
        {passwordChoices.map((choice) => (
          <RadioOption
            key={choice.value}
            name="password-action"
            checked={draft.passwordAction === choice.value}
            onSelect={() => update({ passwordAction: choice.value, password: '' })}
          >
            {choice.label}
          </RadioOption>
        ))}
        {draft.passwordAction === 'set' && (
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={draft.password}
            error={errors.password}
            onChange={(password) => update({ password })}
          />
        )}
      </fieldset>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={invalid || unchanged || action.busy}>
          {action.busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" onClick={props.onCancel} disabled={action.busy}>
          Cancel
        </button>
        <span className="muted" role="status">
          {invalid ? 'Fix the marked fields to save.' : ''}
        </span>
      </div>
    </form>
  );
}
