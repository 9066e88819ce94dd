import type { CommandContext, HandlersOf } from './handlers.js';

/** The followed conversions of uploaded and imported files (the Activity panel). */
export function conversionCommands(core: Pick<CommandContext, 'engine'>): HandlersOf<'conversions'> {
  return { 'conversions:list': async ({ limit }) => core.engine.conversions.list(limit) };
}
