import type { ReactNode } from 'react';

/** One choice of a radio group: the input inside its label, so the text is its accessible name. */
export function RadioOption(props: { name: string; checked: boolean; onSelect: () => void; children: ReactNode }) {
  return (
    <label className="field--inline">
      <input type="radio" name={props.name} checked={props.checked} onChange={props.onSelect} />
      <span>{props.children}</span>
    </label>
  );
}
