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
  return (
    <>
      <fieldset className="choice-group">
        <legend>Visibility</legend>
        <RadioOption name={name} checked={value.visibility} onSelect={() => onChange({ visibility: true })}>
          Public
        </RadioOption>
        <RadioOption name={name} checked={!value.visibility} onSelect={() => onChange({ visibility: false })}>
          Private
        </RadioOption>
      </fieldset>
      <label className="field--inline">
        <input
          type="checkbox"
          checked={value.allowOnlineWatch}
          onChange={(event) => onChange({ allowOnlineWatch: event.target.checked })}
        />
        <span>Allow watching online</span>
      </label>
    </>
  );
}
