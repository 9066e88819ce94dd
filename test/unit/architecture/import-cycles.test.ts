import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from '../../helpers/import-graph.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const SOURCE_FOLDERS = ['src-main', 'src-renderer', 'src-server', 'src-shared'];

/** Each cycle once, as `a -> b -> … -> a`, starting at its alphabetically first file. */
export function findCycles(graph: Map<string, string[]>): string[] {
  const cycles = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const ring = stack.slice(stack.indexOf(next));
        const first = ring.indexOf([...ring].sort()[0]!);
        const ordered = [...ring.slice(first), ...ring.slice(0, first)];
        cycles.add([...ordered, ordered[0]].join(' -> '));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...cycles].sort();
}

describe('imports', () => {
  it('form no cycle anywhere in the source tree', () => {
    const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));
    const known = new Set(files);
    const graph = new Map(
      files.map((file) => [
        relative(ROOT, file),
        importsOf(file, readFileSync(file, 'utf8'), (path) => known.has(path)).map((path) => relative(ROOT, path)),
      ]),
    );
    expect(findCycles(graph)).toEqual([]);
  });

  it('finds a cycle of three files, and an import in a dynamic import() or export … from', () => {
    const texts: Record<string, string> = {
      '/p/a.ts': "import { b } from './b.js';",
      '/p/b.ts': "export { c } from './c.js';",
      '/p/c.ts': "const a = await import('./a.js');",
      '/p/d.ts': "import type { a } from './a.js';",
    };
    const graph = new Map(
      Object.entries(texts).map(([file, text]) => [file, importsOf(file, text, (path) => path in texts)]),
    );
    expect(findCycles(graph)).toEqual(['/p/a.ts -> /p/b.ts -> /p/c.ts -> /p/a.ts']);
  });
});
