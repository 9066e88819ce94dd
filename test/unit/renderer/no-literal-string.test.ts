import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** The messages of `media-sync/no-literal-string` for `code`, linted as if it were the file at `path`. */
async function literalStrings(code: string, path = 'src-renderer/views/files-view.tsx'): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return result!.messages
    .filter((message) => message.ruleId === 'media-sync/no-literal-string')
    .map((message) => message.message);
}

describe('the no-literal-string lint rule', () => {
  it('finds text in JSX and in the attributes a person reads, in the translated files', async () => {
    const found = await literalStrings(
      [
        'export const a = <p>Hello there</p>;',
        'export const b = <input placeholder="Search by name" />;',
        "export const c = <button aria-label={'Close it'} title={`Open ${1}`} />;",
        "export const d = <p>{true ? 'Yes' : 'No way'}</p>;",
      ].join('\n'),
    );
    expect(found).toHaveLength(6);
  }, 30_000);

  it('lets through what comes from t(), symbols, and attributes nobody reads', async () => {
    const found = await literalStrings(
      [
        'declare const t: (key: string) => string;',
        'export const a = <p className="muted wide">{t(\'files.title\')} · ×</p>;',
        'export const b = <input type="search" autoComplete="off" />;',
      ].join('\n'),
    );
    expect(found).toEqual([]);
  }, 30_000);

  it('covers every file of the renderer, a view added later too, and nothing outside it', async () => {
    const code = 'export const a = <p>Hello there</p>;';
    expect(await literalStrings(code, 'src-renderer/views/a-new-view.tsx')).toHaveLength(1);
    expect(await literalStrings(code, 'src-renderer/components/a-new-part.tsx')).toHaveLength(1);
    // the reference server's own pages are the service's, not the app's
    expect(await literalStrings(code, 'src-server/file-host/a-page.tsx')).toEqual([]);
  }, 30_000);
});
