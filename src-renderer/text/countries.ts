/**
 * The ISO 3166-1 alpha-2 codes, for the blocked countries of an import,
 * each named in the UI's language by Intl.DisplayNames (`countriesFor`),
 * English included.
 */
export interface Country {
  code: string;
  name: string;
}

const CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY ' +
  'BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK ' +
  'FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR ' +
  'IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ' +
  'ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
  'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF ' +
  'TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

const LOCALIZED = new Map<string, readonly Country[]>();

/** Every officially assigned code, named in English, sorted by name. */
export const COUNTRIES: readonly Country[] = countriesFor('en');

const BY_CODE = new Map(COUNTRIES.map((country) => [country.code, country]));

export function countryByCode(code: string): Country | undefined {
  return BY_CODE.get(code.toUpperCase());
}

/** "Côte d’Ivoire" → "cote d’ivoire": typing without accents finds names with them. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * Countries matching what a person typed, best first: the exact code, then
 * names starting with it, then names with a word starting with it, then
 * names containing it. Case and accents do not matter; empty shows all.
 */
export function searchCountries(query: string, countries: readonly Country[] = COUNTRIES): Country[] {
  const q = fold(query.trim());
  if (!q) return [...countries];
  const ranked: Array<{ country: Country; rank: number }> = [];
  for (const country of countries) {
    const name = fold(country.name);
    let rank: number;
    if (q.length === 2 && country.code.toLowerCase() === q) rank = 0;
    else if (name.startsWith(q)) rank = 1;
    else if (name.split(/[\s,()'’&-]+/).some((word) => word.startsWith(q))) rank = 2;
    else if (name.includes(q)) rank = 3;
    else continue;
    ranked.push({ country, rank });
  }
  return ranked.sort((a, b) => a.rank - b.rank).map((entry) => entry.country);
}

/** The countries named in `language` (the code where the runtime has no name), sorted as that language sorts. */
export function countriesFor(language: string): readonly Country[] {
  let list = LOCALIZED.get(language);
  if (!list) {
    const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
    list = CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, language),
    );
    LOCALIZED.set(language, list);
  }
  return list;
}
