import { config } from 'zod';

// zod compiles a parser for each object schema the first time it parses with it: a command's own core parses a
// few rows once, and the compiling cost more than it saved (the daemon and the app, which run for hours, keep
// it). Loaded before the core's modules (open-contract.ts): settings.ts parses its defaults as it loads.
config({ jitless: true });
