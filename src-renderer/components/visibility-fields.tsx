import { useId } from 'react';
import { useLocale } from '../i18n/i18n.js';
import { RadioOption } from './radio-option.js';

export interface Visibility {
  visibility: boolean;
  allowOnlineWatch: boolean;
}

/** Public or private, and whether the file may be watched online: the pair a file's edit form and an import share. */
export function VisibilityFields(props: {
  /** the radio group's name, unique on the page */
  name: string;
  value: Visibility;
  onChange: (change: Partial<Visibility>) => void;
}) {
  const { name, value, onChange } = props;
  const { t } = useLocale();
  const meansId = useId();
  return (
    <>
      <fieldset className="choice-group" aria-describedby={meansId}>
        <legend>{t('files.columns.visibility')}</legend>
        <RadioOption name={name} checked={value.visibility} onSelect={() => onChange({ visibility: true })}>
          {t('visibility.public')}
        </RadioOption>
        <RadioOption name={name} checked={!value.visibility} onSelect={() => onChange({ visibility: false })}>
          {t('visibility.private')}
        </RadioOption>
        <small id={meansId} className="muted">
          {t('visibility.privateMeans')}
        </small>
      </fieldset>
      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.allowOnlineWatch}
          onChange={(event) => onChange({ allowOnlineWatch: event.target.checked })}
        />
        <span>{t('visibility.allowWatch')}</span>
      </label>
    </>
  );
}
