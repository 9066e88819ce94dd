import { useId, useMemo, useRef, useState } from 'react';
import { currentLanguage, useLocale } from '../i18n/i18n.js';
import { countriesFor, searchCountries } from '../text/countries.js';
import './country-picker.css';

/** "Germany (DE)", "Deutschland (DE)": the name in the UI's language, and the code the API takes. */
function labelOf(code: string, language: string): string {
  const country = countriesFor(language).find((candidate) => candidate.code === code.toUpperCase());
  return country ? `${country.name} (${code})` : code;
}

/**
 * Two-letter country codes picked from a searchable list: a search box
 * filters a list of checkboxes (name and code both match), Enter in the box
 * picks the best match, and the picked countries show as chips that remove
 * them. Plain checkboxes rather than a custom listbox: every screen reader
 * and keyboard already knows how to use them.
 */
export function CountryPicker(props: {
  legend: string;
  value: string[];
  onChange: (codes: string[]) => void;
  max: number;
  error?: string | null;
  hint?: string;
}) {
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const ids = { hint: useId(), error: useId(), count: useId(), search: useId() };
  const { t } = useLocale();
  const language = currentLanguage();
  const matches = useMemo(() => searchCountries(query, countriesFor(language)), [query, language]);
  const selected = new Set(props.value);
  const full = props.value.length >= props.max;

  const toggle = (code: string) => {
    if (selected.has(code)) props.onChange(props.value.filter((item) => item !== code));
    else if (!full) props.onChange([...props.value, code]);
  };

  return (
    <fieldset className="country-picker" aria-describedby={props.error ? ids.error : undefined}>
      <legend>{props.legend}</legend>
      <p id={ids.hint} className="muted country-picker__hint">
        {props.hint} {t('countries.chosen', { count: props.value.length, max: props.max })}
      </p>
      {props.value.length > 0 && (
        <ul className="country-picker__chips" aria-label={t('countries.chosenLabel', { legend: props.legend })}>
          {props.value.map((code) => (
            <li key={code} className="chip">
              <span>{labelOf(code, language)}</span>
              <button
                type="button"
                className="chip__remove"
                aria-label={t('countries.remove', { country: labelOf(code, language) })}
                onClick={() => {
                  props.onChange(props.value.filter((item) => item !== code));
                  search.current?.focus();
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor={ids.search}>{t('countries.search')}</label>
        <input
          ref={search}
          id={ids.search}
          type="search"
          value={query}
          placeholder={t('countries.searchPlaceholder')}
          aria-describedby={`${ids.hint} ${ids.count}`}
          autoComplete="off"
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            // Enter picks the best match instead of sending the whole form
            if (event.key !== 'Enter') return;
            event.preventDefault();
            const best = matches[0];
            if (best && query.trim() && !selected.has(best.code) && !full) {
              props.onChange([...props.value, best.code]);
              setQuery('');
            }
          }}
        />
        <small id={ids.count} className="muted" aria-live="polite">
          {query.trim()
            ? t('countries.matches', { count: matches.length })
            : t('countries.all', { count: matches.length })}
        </small>
      </div>
      <div className="country-picker__list" role="group" aria-label={t('countries.listLabel')}>
        {matches.map((country) => (
          <label key={country.code} className="country-picker__option">
            <input
              type="checkbox"
              checked={selected.has(country.code)}
              disabled={full && !selected.has(country.code)}
              onChange={() => toggle(country.code)}
            />
            <span>
              {country.name} <span className="muted">({country.code})</span>
            </span>
          </label>
        ))}
        {matches.length === 0 && <p className="muted">{t('countries.noMatch', { query })}</p>}
      </div>
      {props.error && (
        <p id={ids.error} className="field__error">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
