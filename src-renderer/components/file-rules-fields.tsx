import { useId } from 'react';
import { FILE_TYPE_GROUPS } from '../../src-shared/model/folder-options.js';
import { useLocale } from '../i18n/i18n.js';
import { fileRulesFromDraft, type FileRulesDraft } from '../text/file-rules-form.js';
import { RadioOption } from './radio-option.js';
import { TextField } from './text-field.js';

/** A folder's file rules (types, sizes, modified after), beside its ignore patterns in the folder form. */
export function FileRulesFields(props: { value: FileRulesDraft; onChange: (value: FileRulesDraft) => void }) {
  const id = useId();
  const { t } = useLocale();
  const { value } = props;
  const set = (change: Partial<FileRulesDraft>) => props.onChange({ ...value, ...change });
  const { errors } = fileRulesFromDraft(value);
  const described = (name: string, error: string | undefined, hint?: boolean) =>
    [hint ? `${id}-${name}-hint` : '', error ? `${id}-${name}-error` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <fieldset className="folder-options__group">
      <legend>{t('folderRules.title')}</legend>
      <fieldset className="folder-options__group" aria-describedby={described('types', errors.types)}>
        <legend>{t('folderRules.types')}</legend>
        <RadioOption name={`${id}-types`} checked={value.everyType} onSelect={() => set({ everyType: true })}>
          {t('folderRules.typesAll')}
        </RadioOption>
        <RadioOption name={`${id}-types`} checked={!value.everyType} onSelect={() => set({ everyType: false })}>
          {t('folderRules.typesChosen')}
        </RadioOption>
        {!value.everyType && (
          <div className="folder-options__nested">
            {FILE_TYPE_GROUPS.map((group) => (
              <label key={group} className="field--inline">
                <input
                  type="checkbox"
                  checked={value.groups.includes(group)}
                  onChange={(event) =>
                    set({
                      groups: event.target.checked
                        ? [...value.groups, group]
                        : value.groups.filter((other) => other !== group),
                    })
                  }
                />
                <span>{t(`folderRules.${group}`)}</span>
              </label>
            ))}
            <TextField
              label={t('folderRules.extensions')}
              value={value.extensionsText}
              error={errors.extensions}
              hint={t('folderRules.extensionsHint')}
              onChange={(extensionsText) => set({ extensionsText })}
            />
          </div>
        )}
        {errors.types && (
          <span id={`${id}-types-error`} className="field__error">
            {errors.types}
          </span>
        )}
      </fieldset>
      {(['minMb', 'maxMb'] as const).map((field) => (
        <label key={field} className="field">
          <span>{t(field === 'minMb' ? 'folderRules.minSize' : 'folderRules.maxSize')}</span>
          <input
            type="text"
            inputMode="decimal"
            value={value[field]}
            aria-invalid={errors.size ? true : undefined}
            aria-describedby={described('size', errors.size, true)}
            onChange={(event) => set({ [field]: event.target.value })}
          />
        </label>
      ))}
      <small id={`${id}-size-hint`} className="muted">
        {t('folderRules.sizeHint')}
      </small>
      {errors.size && (
        <span id={`${id}-size-error`} className="field__error">
          {errors.size}
        </span>
      )}
      <TextField
        label={t('folderRules.modifiedAfter')}
        type="date"
        value={value.modifiedAfter}
        hint={t('folderRules.modifiedAfterHint')}
        onChange={(modifiedAfter) => set({ modifiedAfter })}
      />
    </fieldset>
  );
}
