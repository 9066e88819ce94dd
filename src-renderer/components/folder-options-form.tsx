import { useId } from 'react';
import {
  FOLDER_NOTIFY_MODES,
  SETTLE_CHOICES,
  type FolderNotify,
  type FolderOptions,
} from '../../src-shared/model/folder-options.js';
import { settleChoiceText } from '../text/file-checks-text.js';
import { globsFromText, subfolderError } from '../text/settings-form.js';
import { useLocale } from '../i18n/i18n.js';
import { fileRulesDraft, fileRulesFromDraft, type FileRulesDraft } from '../text/file-rules-form.js';
import { FileRulesFields } from './file-rules-fields.js';
import { RadioOption } from './radio-option.js';
import './folder-options-form.css';

/** The folder options while they are edited: the ignore patterns and the subfolder name as typed. */
export interface FolderOptionsDraft {
  visibility: FolderOptions['visibility'];
  allowOnlineWatch: boolean | null;
  includeSubfolders: boolean;
  uploadExisting: boolean;
  skipExisting: boolean;
  afterUpload: 'keep' | 'move' | 'delete';
  subfolder: string;
  globsText: string;
  /** null: the app's default */
  settleSeconds: number | null;
  checkByPolling: boolean;
  notify: FolderNotify;
  /** the file rules (type, size, modified after), as typed */
  fileRules: FileRulesDraft;
}

export function draftFromOptions(options: FolderOptions): FolderOptionsDraft {
  return {
    visibility: options.visibility,
    allowOnlineWatch: options.allowOnlineWatch,
    includeSubfolders: options.includeSubfolders,
    uploadExisting: options.uploadExisting,
    skipExisting: options.skipExisting,
    afterUpload: options.afterUpload.kind,
    subfolder: options.afterUpload.kind === 'move' ? options.afterUpload.subfolder : 'Uploaded',
    globsText: options.ignoreGlobs.join('\n'),
    settleSeconds: options.settleSeconds,
    checkByPolling: options.checkByPolling,
    notify: options.notify,
    fileRules: fileRulesDraft(options),
  };
}

/** The options to send, or null while the subfolder name or a file rule is wrong. */
export function optionsFromDraft(draft: FolderOptionsDraft): FolderOptions | null {
  if (draft.afterUpload === 'move' && subfolderError(draft.subfolder)) return null;
  const { rules } = fileRulesFromDraft(draft.fileRules);
  if (!rules) return null;
  return {
    visibility: draft.visibility,
    allowOnlineWatch: draft.allowOnlineWatch,
    includeSubfolders: draft.includeSubfolders,
    uploadExisting: draft.uploadExisting,
    skipExisting: draft.skipExisting,
    afterUpload:
      draft.afterUpload === 'move' ? { kind: 'move', subfolder: draft.subfolder.trim() } : { kind: draft.afterUpload },
    ignoreGlobs: globsFromText(draft.globsText),
    settleSeconds: draft.settleSeconds,
    checkByPolling: draft.checkByPolling,
    notify: draft.notify,
    ...rules,
  };
}

/** Every per-folder option (`FolderOptions`), as labelled fields. */
export function FolderOptionsForm(props: {
  value: FolderOptionsDraft;
  onChange: (value: FolderOptionsDraft) => void;
  /** "upload existing files" only matters when the folder is added */
  adding: boolean;
}) {
  const id = useId();
  const { t } = useLocale();
  const { value } = props;
  const set = (change: Partial<FolderOptionsDraft>) => props.onChange({ ...value, ...change });
  const subfolderProblem = value.afterUpload === 'move' ? subfolderError(value.subfolder) : null;
  const watch = value.allowOnlineWatch === null ? 'default' : value.allowOnlineWatch ? 'yes' : 'no';

  return (
    <div className="folder-options">
      <fieldset className="folder-options__group" aria-describedby={`${id}-private-means`}>
        <legend>{t('folderOptions.visibility')}</legend>
        {(['private', 'public'] as const).map((visibility) => (
          <RadioOption
            key={visibility}
            name={`${id}-visibility`}
            checked={value.visibility === visibility}
            onSelect={() => set({ visibility })}
          >
            {t(`visibility.${visibility}`)}
          </RadioOption>
        ))}
        <small id={`${id}-private-means`} className="muted">
          {t('visibility.privateMeans')}
        </small>
      </fieldset>

      <label className="field">
        <span>{t('folderOptions.watch')}</span>
        <select
          value={watch}
          onChange={(event) =>
            set({ allowOnlineWatch: event.target.value === 'default' ? null : event.target.value === 'yes' })
          }
        >
          <option value="default">{t('folderOptions.watchDefault')}</option>
          <option value="yes">{t('visibility.allowWatch')}</option>
          <option value="no">{t('folderOptions.watchNo')}</option>
        </select>
      </label>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.includeSubfolders}
          onChange={(event) => set({ includeSubfolders: event.target.checked })}
        />
        <span>{t('folderOptions.subfolders')}</span>
      </label>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.uploadExisting}
          disabled={!props.adding}
          aria-describedby={props.adding ? undefined : `${id}-existing-hint`}
          onChange={(event) => set({ uploadExisting: event.target.checked })}
        />
        <span>{t('folderOptions.uploadExisting')}</span>
      </label>
      {!props.adding && (
        <small id={`${id}-existing-hint`} className="muted">
          {t('folderOptions.uploadExistingFixed')}
        </small>
      )}

      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.skipExisting}
          aria-describedby={`${id}-skip-hint`}
          onChange={(event) => set({ skipExisting: event.target.checked })}
        />
        <span>{t('folderOptions.skipExisting')}</span>
      </label>
      <small id={`${id}-skip-hint`} className="muted">
        {t('folderOptions.skipExistingHint')}
      </small>

      <fieldset className="folder-options__group">
        <legend>{t('folderOptions.after')}</legend>
        <RadioOption
          name={`${id}-after`}
          checked={value.afterUpload === 'keep'}
          onSelect={() => set({ afterUpload: 'keep' })}
        >
          {t('folderOptions.keep')}
        </RadioOption>
        <RadioOption
          name={`${id}-after`}
          checked={value.afterUpload === 'move'}
          onSelect={() => set({ afterUpload: 'move' })}
        >
          {t('folderOptions.move')}
        </RadioOption>
        {value.afterUpload === 'move' && (
          <label className="field folder-options__nested">
            <span>{t('folderOptions.subfolderName')}</span>
            <input
              type="text"
              value={value.subfolder}
              aria-invalid={subfolderProblem ? true : undefined}
              aria-describedby={subfolderProblem ? `${id}-subfolder-error` : undefined}
              onChange={(event) => set({ subfolder: event.target.value })}
            />
            {subfolderProblem && (
              <span id={`${id}-subfolder-error`} className="field__error">
                {subfolderProblem}
              </span>
            )}
          </label>
        )}
        <RadioOption
          name={`${id}-after`}
          checked={value.afterUpload === 'delete'}
          onSelect={() => set({ afterUpload: 'delete' })}
        >
          {t('folderOptions.delete')}
        </RadioOption>
        {value.afterUpload === 'delete' && (
          <p className="folder-options__warning">{t('folderOptions.deleteWarning')}</p>
        )}
      </fieldset>

      <label className="field">
        <span>{t('fileChecks.settle')}</span>
        <select
          value={value.settleSeconds ?? 'default'}
          aria-describedby={`${id}-settle-hint`}
          onChange={(event) =>
            set({ settleSeconds: event.target.value === 'default' ? null : Number(event.target.value) })
          }
        >
          {/* a window set by hand (the CLI's --settle) is offered too, so the form keeps it */}
          {[...new Set<number | null>([...SETTLE_CHOICES, value.settleSeconds])].map((seconds) => (
            <option key={seconds ?? 'default'} value={seconds ?? 'default'}>
              {settleChoiceText(seconds)}
            </option>
          ))}
        </select>
        <small id={`${id}-settle-hint`} className="muted">
          {t('fileChecks.settleHint')}
        </small>
      </label>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.checkByPolling}
          aria-describedby={`${id}-polling-hint`}
          onChange={(event) => set({ checkByPolling: event.target.checked })}
        />
        <span>{t('fileChecks.checkByPolling')}</span>
      </label>
      <small id={`${id}-polling-hint`} className="muted">
        {t('fileChecks.checkByPollingHint')}
      </small>

      <label className="field">
        <span>{t('notify.folder.label')}</span>
        <select
          value={value.notify}
          aria-describedby={`${id}-notify-hint`}
          onChange={(event) => set({ notify: event.target.value as FolderNotify })}
        >
          {FOLDER_NOTIFY_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`notify.folder.${mode}`)}
            </option>
          ))}
        </select>
        <small id={`${id}-notify-hint`} className="muted">
          {t('notify.folder.hint')}
        </small>
      </label>

      <label className="field">
        <span>{t('folderOptions.ignore')}</span>
        <textarea
          rows={3}
          value={value.globsText}
          placeholder={t('folderOptions.ignorePlaceholder')}
          aria-describedby={`${id}-globs-hint`}
          onChange={(event) => set({ globsText: event.target.value })}
        />
        <small id={`${id}-globs-hint`} className="muted">
          {t('folderOptions.ignoreHint')}
        </small>
      </label>
      <FileRulesFields value={value.fileRules} onChange={(fileRules) => set({ fileRules })} />
    </div>
  );
}
