import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, specifiersOf } from '../../helpers/import-graph.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** The files loaded with `entry` before its first frame: its imports, theirs and so on, none of the `import()`s. */
function loadedWith(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of importsOf(file, readFileSync(file, 'utf8'), existsSync, 'loadedWithIt')) visit(next);
  };
  visit(resolve(ROOT, entry));
  return [...seen].map((file) => relative(ROOT, file)).sort();
}

describe("the page's first view", () => {
  const loaded = loadedWith('src-renderer/main.tsx');

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
