import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')` with a literal path. */
const IMPORT =
  /(?:^|[\s;])((?:import|export)\s[^'"`;]*?)from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The .ts and .tsx files under `dir`, declarations and node_modules left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * What `text` imports, as written: every kind, or `loadedWithIt` only what is
 * loaded with the file (no `import type`/`export type`, no `import()`).
 */
export function specifiersOf(text: string, which: 'all' | 'loadedWithIt' = 'all'): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(IMPORT)) {
    if (which === 'loadedWithIt' && (match[4] !== undefined || /^(?:import|export)\s+type\s/.test(match[1] ?? ''))) {
      continue;
    }
    found.add(match[2] ?? match[3] ?? match[4]!);
  }
  return [...found];
}

/** The project files `file` imports (relative specifiers; `.js` is the compiled name of a `.ts`/`.tsx`). */
export function importsOf(
  file: string,
  text: string,
  exists: (path: string) => boolean,
  which: 'all' | 'loadedWithIt' = 'all',
): string[] {
  const found = new Set<string>();
  for (const specifier of specifiersOf(text, which)) {
    if (!specifier.startsWith('.')) continue;
    const base = resolve(dirname(file), specifier).replace(/\.js$/, '');
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(exists);
    if (target) found.add(target);
  }
  return [...found];
}

/**
 * The files loaded with `entry` (relative to `root`) before it runs: its imports, theirs and so on, none of the
 * `import()`s; relative to `root`, sorted.
 */
export function loadedWith(root: string, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of importsOf(file, readFileSync(file, 'utf8'), existsSync, 'loadedWithIt')) visit(next);
  };
  visit(resolve(root, entry));
  return [...seen].map((file) => relative(root, file)).sort();
}
