import { API_LIMITS, type MediaFileDetail } from '../../src-shared/api/index.js';
import {
  FileChangesSchema,
  visibilityOf,
  type FileChanges,
  type Visibility,
} from '../../src-shared/model/visibility.js';
import { t } from '../i18n/i18n.js';
import { fieldError } from './field-rules.js';

/** What the password part of the edit form does: leave it, set a new one, or remove it. */
export type PasswordAction = 'keep' | 'set' | 'remove';

/** The edit form of a file, as the inputs hold it. */
export interface FileEditDraft {
  name: string;
  description: string;
  visibility: Visibility;
  allowOnlineWatch: boolean;
  passwordAction: PasswordAction;
  password: string;
}

export type FileEditErrors = Partial<Record<'name' | 'description' | 'password', string>>;

const fields = FileChangesSchema.shape;

export const FILE_NAME_MAX = API_LIMITS.fileNameMaxChars;
export const DESCRIPTION_MAX = API_LIMITS.descriptionMaxChars;

export function draftFromFile(file: MediaFileDetail): FileEditDraft {
  return {
    name: file.name,
    description: file.description ?? '',
    visibility: visibilityOf(file.visibility),
    allowOnlineWatch: file.allow_online_watch,
    passwordAction: 'keep',
    password: '',
  };
}

/** Each field checked with PATCH /files/{id}'s own rules, as the person types. */
export function validateFileDraft(draft: FileEditDraft): FileEditErrors {
  const errors: FileEditErrors = {};
  const name = fieldError(fields.name, draft.name, t('fileEdit.name'));
  if (name) errors.name = name;
  const description = fieldError(fields.description, draft.description, t('fileEdit.description'));
  if (description) errors.description = description;
  if (draft.passwordAction === 'set') {
    const password = draft.password
      ? fieldError(fields.password, draft.password, t('fileEdit.password'))
      : t('fileEdit.passwordMissing');
    if (password) errors.password = password;
  }
  return errors;
}

/**
 * Only what changed, as a PATCH body (the spec: "only fields to change are
 * sent"). A description emptied becomes null; one the server never told us
 * (it is not listed in file lists) is sent only when the person typed one.
 */
export function fileChanges(file: MediaFileDetail, draft: FileEditDraft): FileChanges {
  const changes: FileChanges = {};
  if (draft.name !== file.name) changes.name = draft.name;
  const before = file.description ?? '';
  if (draft.description !== before) changes.description = draft.description === '' ? null : draft.description;
  if (draft.visibility !== visibilityOf(file.visibility)) changes.visibility = draft.visibility;
  if (draft.allowOnlineWatch !== file.allow_online_watch) changes.allow_online_watch = draft.allowOnlineWatch;
  if (draft.passwordAction === 'set') changes.password = draft.password;
  if (draft.passwordAction === 'remove' && file.password_protected) changes.password = null;
  return changes;
}
