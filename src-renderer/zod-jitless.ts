import { z } from 'zod';

// zod probes for eval when a schema is built, to compile faster parsers; the pages' CSP
// forbids eval. Imported first by main.tsx so it runs before any schema module.
z.config({ jitless: true });
