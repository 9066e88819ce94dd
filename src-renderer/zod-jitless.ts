import * as z from 'zod';

// zod probes for eval when a schema is built, to compile faster parsers; the pages' CSP
// forbids eval. Loaded before every view chunk (app.tsx's lazyView), so it runs before any schema
// module: the main chunk has none (test/unit/architecture/first-view.test.ts).
z.config({ jitless: true });
