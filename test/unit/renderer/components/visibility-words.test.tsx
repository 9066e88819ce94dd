import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { de } from '../../../../src-shared/i18n/de.js';
import { en } from '../../../../src-shared/i18n/en.js';
import { FolderOptionsForm } from '../../../../src-renderer/components/folder-options-form.js';
import { VisibilityFields } from '../../../../src-renderer/components/visibility-fields.js';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { NEW_FOLDER_OPTIONS } from '../../../../src-renderer/views/folders/folder-forms.js';

/**
 * A private file's page and watch links open for anyone who has them
 * (docs/reference-server.md), so nothing may call private "only you": the
 * folder form and the upload and import options say what it means.
 */
const forms = () =>
  renderToStaticMarkup(
    <>
      <FolderOptionsForm value={NEW_FOLDER_OPTIONS} onChange={() => {}} adding />
      <VisibilityFields name="v" value={{ visibility: 'private', allowOnlineWatch: true }} onChange={() => {}} />
    </>,
  );
/** Every message of a catalog, as one text. */
const allText = (catalog: object): string => JSON.stringify(catalog);

afterEach(() => i18n.changeLanguage('en'));

describe('what private means', () => {
  it('is said in the folder form and the file and import options, tied to the choice', async () => {
    await i18n.changeLanguage('en');
    const html = forms();
    const meaning =
      'Private: not listed publicly; anyone with the link can open it. Add a password to keep it to yourself.';
    expect(html.split(meaning)).toHaveLength(3);
    // each fieldset is described by its sentence
    for (const [, id] of html.matchAll(/<fieldset[^>]*aria-describedby="([^"]+)"/g))
      expect(html).toContain(`id="${id}"`);
    expect(html).not.toMatch(/only you\b|anyone with the link<\/span>/);

    await i18n.changeLanguage('de');
    expect(forms()).toContain('wer den Link hat, kann die Datei öffnen');
  });

  it('is never "only you" in any language', () => {
    expect(allText(en)).not.toMatch(/Private: only you|Public: anyone with the link/);
    expect(allText(de)).not.toMatch(/Privat: nur Sie|Öffentlich: alle mit dem Link/);
  });
});
