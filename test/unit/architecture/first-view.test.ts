import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedWith, specifiersOf } from '../../helpers/import-graph.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe("the page's first view", () => {
  const loaded = loadedWith(ROOT, 'src-renderer/main.tsx');

  it('loads no zod (the views that check input load it, after zod-jitless) and no German catalog', () => {
    const withZod = loaded.filter((file) =>
      specifiersOf(readFileSync(resolve(ROOT, file), 'utf8'), 'loadedWithIt').includes('zod'),
    );
    expect(withZod).toEqual([]);
    expect(loaded).not.toContain('src-shared/i18n/de.ts');
    // what it is: the Queue and the English catalog
    expect(loaded).toEqual(expect.arrayContaining(['src-renderer/views/queue-view.tsx', 'src-shared/i18n/en.ts']));
  });

  it('is found through re-exports, not through a type or an import()', () => {
    expect(
      specifiersOf("import type { A } from './a.js';\nexport { b } from './b.js';\nimport('./c.js');", 'loadedWithIt'),
    ).toEqual(['./b.js']);
  });
});
