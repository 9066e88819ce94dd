import { useId } from 'react';
import type { Visibility } from '../../src-shared/model/visibility.js';
import { useLocale } from '../i18n/i18n.js';
import { RadioOption } from './radio-option.js';

interface VisibilityChoice {
  visibility: Visibility;
  allowOnlineWatch: boolean;
}

/** Public or private, and whether the file may be watched online: the pair a file's edit form and an import share. */
export function VisibilityFields(props: {
  /** the radio group's name, unique on the page */
  name: string;
  value: VisibilityChoice;
  onChange: (change: Partial<VisibilityChoice>) => void;
}) {
  const { name, value, onChange } = props;
  const { t } = useLocale();
  const meansId = useId();
  return (
    <>
      <fieldset className="choice-group" aria-describedby={meansId}>
        <legend>{t('files.columns.visibility')}</legend>
        {(['public', 'private'] as const).map((visibility) => (
          <RadioOption
            key={visibility}
            name={name}
            checked={value.visibility === visibility}
            onSelect={() => onChange({ visibility })}
          >
            {t(`visibility.${visibility}`)}
          </RadioOption>
        ))}
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
