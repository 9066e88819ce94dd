import { useId } from 'react';
import type { FolderOptions } from '../../src-shared/model/folder-options.js';
import { globsFromText, subfolderError } from '../model/settings-form.js';
import { RadioOption } from './radio-option.js';

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
  };
}

/** The options to send, or null while the subfolder name is wrong. */
export function optionsFromDraft(draft: FolderOptionsDraft): FolderOptions | null {
  if (draft.afterUpload === 'move' && subfolderError(draft.subfolder)) return null;
  return {
    visibility: draft.visibility,
    allowOnlineWatch: draft.allowOnlineWatch,
    includeSubfolders: draft.includeSubfolders,
    uploadExisting: draft.uploadExisting,
    skipExisting: draft.skipExisting,
    afterUpload:
      draft.afterUpload === 'move' ? { kind: 'move', subfolder: draft.subfolder.trim() } : { kind: draft.afterUpload },
    ignoreGlobs: globsFromText(draft.globsText),
  };
}

/** Every per-folder option (DESIGN.md §5), as labelled fields. */
export function FolderOptionsForm(props: {
  value: FolderOptionsDraft;
  onChange: (value: FolderOptionsDraft) => void;
  /** "upload existing files" only matters when the folder is added */
  adding: boolean;
}) {
  const id = useId();
  const { value } = props;
  const set = (change: Partial<FolderOptionsDraft>) => props.onChange({ ...value, ...change });
  const subfolderProblem = value.afterUpload === 'move' ? subfolderError(value.subfolder) : null;
  const watch = value.allowOnlineWatch === null ? 'default' : value.allowOnlineWatch ? 'yes' : 'no';

  return (
    <div className="folder-options">
      <fieldset className="folder-options__group">
        <legend>Visibility of uploaded files</legend>
        {(['private', 'public'] as const).map((visibility) => (
          <RadioOption
            key={visibility}
            name={`${id}-visibility`}
            checked={value.visibility === visibility}
            onSelect={() => set({ visibility })}
          >
            {visibility === 'private' ? 'Private: only you' : 'Public: anyone with the link'}
          </RadioOption>
        ))}
      </fieldset>

      <label className="field">
        <span>Online watching</span>
        <select
          value={watch}
          onChange={(event) =>
            set({ allowOnlineWatch: event.target.value === 'default' ? null : event.target.value === 'yes' })
          }
        >
          <option value="default">As the service decides</option>
          <option value="yes">Allow watching online</option>
          <option value="no">Do not allow watching online</option>
        </select>
      </label>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.includeSubfolders}
          onChange={(event) => set({ includeSubfolders: event.target.checked })}
        />
        <span>Include subfolders</span>
      </label>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.uploadExisting}
          disabled={!props.adding}
          aria-describedby={props.adding ? undefined : `${id}-existing-hint`}
          onChange={(event) => set({ uploadExisting: event.target.checked })}
        />
        <span>Upload the files already in the folder</span>
      </label>
      {!props.adding && (
        <small id={`${id}-existing-hint`} className="muted">
          Decided when the folder was added.
        </small>
      )}

      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.skipExisting}
          aria-describedby={`${id}-skip-hint`}
          onChange={(event) => set({ skipExisting: event.target.checked })}
        />
        <span>Skip files already on the service</span>
      </label>
      <small id={`${id}-skip-hint`} className="muted">
        A file with the same name and size on your account is not uploaded again, nor moved or deleted here.
      </small>

      <fieldset className="folder-options__group">
        <legend>After a file is uploaded</legend>
        <RadioOption
          name={`${id}-after`}
          checked={value.afterUpload === 'keep'}
          onSelect={() => set({ afterUpload: 'keep' })}
        >
          Keep it where it is
        </RadioOption>
        <RadioOption
          name={`${id}-after`}
          checked={value.afterUpload === 'move'}
          onSelect={() => set({ afterUpload: 'move' })}
        >
          Move it into a subfolder
        </RadioOption>
        {value.afterUpload === 'move' && (
          <label className="field folder-options__nested">
            <span>Subfolder name</span>
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
          Delete the local file
        </RadioOption>
        {value.afterUpload === 'delete' && (
          <p className="folder-options__warning">The local copy is deleted once the service has the whole file.</p>
        )}
      </fieldset>

      <label className="field">
        <span>Ignore files matching</span>
        <textarea
          rows={3}
          value={value.globsText}
          placeholder={'*.tmp\nDrafts/**'}
          aria-describedby={`${id}-globs-hint`}
          onChange={(event) => set({ globsText: event.target.value })}
        />
        <small id={`${id}-globs-hint`} className="muted">
          One pattern per line, such as *.tmp or Drafts/**.
        </small>
      </label>
    </div>
  );
}
