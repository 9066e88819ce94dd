import { describe, expect, it } from 'vitest';
import { COUNTRIES, countriesFor, countryByCode, searchCountries } from '../../../../src-renderer/text/countries.js';
import { CountryCodeSchema } from '../../../../src-shared/api/index.js';

describe('countries', () => {
  it('holds the 249 ISO 3166-1 alpha-2 codes, each once and valid for the API', () => {
    expect(COUNTRIES).toHaveLength(249);
    expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(249);
    for (const { code } of COUNTRIES) expect(CountryCodeSchema.parse(code)).toBe(code);
    expect(countryByCode('de')).toEqual({ code: 'DE', name: 'Germany' });
    expect(countryByCode('XX')).toBeUndefined();
  });

  it('finds a country by its code first, then by the start of its name, then by a word, then anywhere', () => {
    expect(searchCountries('DE')[0]).toEqual({ code: 'DE', name: 'Germany' });
    expect(searchCountries('ger').map((country) => country.code)).toEqual(['DE', 'DZ', 'NE', 'NG']);
    // names starting with "south", then "French Southern Territories" where a later word does
    expect(searchCountries('south').map((country) => country.code)).toEqual(['ZA', 'GS', 'KR', 'SS', 'TF']);
    expect(searchCountries('united kingdom').map((country) => country.code)).toEqual(['GB']);
  });

  it('ignores case and accents, and shows everything for an empty search', () => {
    expect(searchCountries('cote').map((country) => country.code)).toEqual(['CI']);
    // "Åland Islands" starts with it; "New Zealand" only contains it
    expect(searchCountries('ÅLAND').map((country) => country.code)).toEqual(['AX', 'NZ']);
    expect(searchCountries('   ')).toHaveLength(249);
    expect(searchCountries('zzzz')).toEqual([]);
  });
});

describe('country names in the UI’s language', () => {
  it('come from Intl in German, sorted the German way, and stay searchable by code', () => {
    const german = countriesFor('de');
    expect(german).toHaveLength(249);
    expect(german.find((country) => country.code === 'DE')?.name).toBe('Deutschland');
    expect(searchCountries('deutsch', german)[0]?.code).toBe('DE');
    expect(searchCountries('AT', german)[0]?.code).toBe('AT');
    expect(countriesFor('en')).toBe(COUNTRIES);
  });
});
