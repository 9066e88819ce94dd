import { useMemo, useState, type FormEvent } from 'react';
import type { MediaFileDetail } from '../../src-shared/api/index.js';
import { useAction } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import {
  DESCRIPTION_MAX,
  FILE_NAME_MAX,
  draftFromFile,
  fileChanges,
  validateFileDraft,
  type FileEditDraft,
  type PasswordAction,
} from '../text/file-edit.js';
import { useLocale } from '../i18n/i18n.js';
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
  const { files } = useStores();
  const action = useAction();
  const { t } = useLocale();
  const errors = useMemo(() => validateFileDraft(draft), [draft]);
  const changes = useMemo(() => fileChanges(props.file, draft), [props.file, draft]);
  const invalid = Object.keys(errors).length > 0;
  const unchanged = Object.keys(changes).length === 0;
  const update = (patch: Partial<FileEditDraft>) => setDraft((previous) => ({ ...previous, ...patch }));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (invalid || unchanged) return;
    const saved = await action.run(() => files.update({ accountId: props.accountId, fileId: props.file.id }, changes));
    if (saved) props.onSaved(saved);
  }

  const passwordChoices: Array<{ value: PasswordAction; label: string }> = [
    { value: 'keep', label: props.file.password_protected ? t('fileEdit.keepPassword') : t('fileEdit.noPassword') },
    { value: 'set', label: props.file.password_protected ? t('fileEdit.changePassword') : t('fileEdit.setPassword') },
  ];
  if (props.file.password_protected) passwordChoices.push({ value: 'remove', label: t('fileEdit.removePassword') });

  return (
    <form
      className="form file-edit"
      aria-label={t('fileEdit.formLabel', { name: props.file.name })}
      onSubmit={(event) => void save(event)}
    >
      <TextField
        label={t('fileEdit.name')}
        value={draft.name}
        max={FILE_NAME_MAX}
        error={errors.name}
        onChange={(name) => update({ name })}
      />
      <TextField
        label={t('fileEdit.description')}
        multiline
        value={draft.description}
        max={DESCRIPTION_MAX}
        error={errors.description}
        hint={props.file.description === undefined ? t('fileEdit.descriptionUnknown') : undefined}
        onChange={(description) => update({ description })}
      />
      <VisibilityFields name="visibility" value={draft} onChange={update} />
      <fieldset className="choice-group">
        <legend>{t('fileEdit.password')}</legend>
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
            label={t('fileEdit.newPassword')}
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
          {action.busy ? t('fileEdit.saving') : t('fileEdit.save')}
        </button>
        <button type="button" className="button" onClick={props.onCancel} disabled={action.busy}>
          {t('common.cancel')}
        </button>
        <span className="muted" role="status">
          {invalid ? t('fileEdit.fixFields') : ''}
        </span>
      </div>
    </form>
  );
}
