import type { CoreServices, HandlersOf } from './handlers.js';

/** The followed conversions of uploaded and imported files (the Activity panel). */
export function conversionCommands({ conversions }: Pick<CoreServices, 'conversions'>): HandlersOf<'conversions'> {
  return { 'conversions:list': async ({ limit }) => conversions.list(limit) };
}
