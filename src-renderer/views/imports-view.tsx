import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { RemoteJob } from '../../src-shared/api/index.js';
import type { AccountView, IpcError } from '../../src-shared/ipc/ipc-contract.js';
import { refusedLinks } from '../../src-shared/model/field-reasons.js';
import { toIpcError } from '../bridge/bridge-context.js';
import { CountryPicker } from '../components/country-picker.js';
import { ErrorNote } from '../components/error-note.js';
import { TextField } from '../components/text-field.js';
import { appendLinks, batches, describeImportLines, parseImportLines } from '../text/import-lines.js';
import {
  BLOCKED_COUNTRIES_MAX,
  EMPTY_IMPORT_OPTIONS,
  REMOTE_NAME_MAX,
  importBody,
  validateImportOptions,
  type ImportOptionsDraft,
} from '../text/import-options.js';
import { DESCRIPTION_MAX } from '../text/file-edit.js';
import { VisibilityFields } from '../components/visibility-fields.js';
import { useLocale } from '../i18n/i18n.js';
import { formatCount } from '../text/file-columns.js';
import { useStores } from '../store/stores.js';
import { JobList } from './import-jobs.js';
import './imports-view.css';

/**
 * Imports from links: a paste box checked line by line before anything is
 * sent, every option of POST /remote-uploads, and the account's jobs as the
 * core follows them (imports:changed), with cancel, retry and a link to the
 * file each completed job created. Links opened from outside the app
 * (media-sync://import) arrive in the box, and wait there for the person.
 */
export function ImportsView(props: { account: AccountView; openedLinks: string[]; onOpenedLinksTaken: () => void }) {
  const { account } = props;
  const [created, setCreated] = useState<RemoteJob[]>([]);
  const { t } = useLocale();
  return (
    <div className="imports-view">
      <h1>{t('imports.title')}</h1>
      <ImportForm
        accountId={account.id}
        openedLinks={props.openedLinks}
        onOpenedLinksTaken={props.onOpenedLinksTaken}
        onCreated={(jobs) => setCreated((previous) => [...jobs, ...previous])}
      />
      <JobList accountId={account.id} created={created} />
    </div>
  );
}

// ---- the paste box and its options --------------------------------------------------

function ImportForm(props: {
  accountId: string;
  openedLinks: string[];
  onOpenedLinksTaken: () => void;
  onCreated: (jobs: RemoteJob[]) => void;
}) {
  const { accountId, onCreated, openedLinks, onOpenedLinksTaken } = props;
  const { imports } = useStores();
  const { t, locale } = useLocale();
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const [options, setOptions] = useState<ImportOptionsDraft>(EMPTY_IMPORT_OPTIONS);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const [result, setResult] = useState('');
  // links the service refused, with its reasons: their lines need fixing until changed
  const [refused, setRefused] = useState<ReadonlyMap<string, string>>(new Map());
  const ids = { box: useId(), hint: useId(), errors: useId(), summary: useId() };
  // the lines' and the fields' sentences are in the UI's language: worded again when it changes
  const parsed = useMemo(() => parseImportLines(text, refused), [text, refused, locale]);
  const optionErrors = useMemo(() => validateImportOptions(options), [options, locale]);
  const optionsInvalid = Object.keys(optionErrors).length > 0;
  const update = (patch: Partial<ImportOptionsDraft>) => setOptions((previous) => ({ ...previous, ...patch }));

  // a link opened from outside goes into the box, after what is there; only the person's click sends it
  useEffect(() => {
    if (openedLinks.length === 0) return;
    setText((previous) => appendLinks(previous, openedLinks));
    setResult(t('imports.opened', { count: openedLinks.length }));
    box.current?.focus();
    onOpenedLinksTaken();
  }, [openedLinks, onOpenedLinksTaken, t]);

  /**
   * Sends the valid links, in batches the server takes, and keeps only the
   * lines that need fixing in the box: one bad line out of many does not
   * hold the others back, and nothing the person typed is silently lost.
   * The service refuses a whole batch for one link it will not fetch
   * (`urls.N`), creating nothing: the others go again without it, and the
   * links it named stay in the box with its reasons.
   */
  async function send(event: FormEvent) {
    event.preventDefault();
    if (parsed.urls.length === 0 || optionsInvalid || sending) return;
    setSending(true);
    setError(null);
    setResult('');
    const accepted: RemoteJob[] = [];
    const sent = new Set<string>();
    const refusedNow = new Map<string, string>();
    try {
      for (let urls of batches(parsed.urls)) {
        // each round leaves out at least one link: at most as many rounds as links
        while (urls.length > 0) {
          try {
            accepted.push(...(await imports.create(accountId, importBody(urls, options))));
            for (const url of urls) sent.add(url);
            break;
          } catch (problem) {
            const named = refusedLinks(toIpcError(problem), urls);
            if (named.length === 0) throw problem;
            for (const link of named) refusedNow.set(link.url, link.reasons.join(' '));
            urls = urls.filter((url) => !refusedNow.has(url));
          }
        }
      }
    } catch (problem) {
      setError(toIpcError(problem));
    } finally {
      setSending(false);
    }
    if (accepted.length > 0) onCreated(accepted);
    if (refusedNow.size > 0) setRefused((previous) => new Map([...previous, ...refusedNow]));
    const unsent = (value: string) => value.split(/\r\n|\r|\n/).filter((line) => line.trim() && !sent.has(line.trim()));
    // lines left unsent, besides the refused ones (said apart)
    const left = unsent(text).filter((line) => !refusedNow.has(line.trim()));
    // from the box as it is now: a link opened while these were being sent stays
    setText((current) => unsent(current).join('\n'));
    const said = [
      sent.size > 0 && t(left.length > 0 ? 'imports.startedSomeLeft' : 'imports.started', { count: accepted.length }),
      refusedNow.size > 0 && t('imports.refused', { count: refusedNow.size }),
    ];
    setResult(said.filter(Boolean).join(' '));
  }

  const describedBy = [parsed.errors.length > 0 ? ids.errors : null, ids.hint, ids.summary].filter(Boolean).join(' ');
  const ready = parsed.urls.length;

  return (
    <form className="import-form card" aria-label={t('imports.formLabel')} onSubmit={(event) => void send(event)}>
      <div className="import-form__links">
        <label htmlFor={ids.box} className="field__label">
          {t('imports.links')}
        </label>
        <textarea
          ref={box}
          id={ids.box}
          className="import-form__box"
          rows={7}
          spellCheck={false}
          autoComplete="off"
          placeholder={t('imports.linksPlaceholder')}
          value={text}
          aria-invalid={parsed.errors.length > 0 ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setResult('');
          }}
        />
        {parsed.errors.length > 0 && (
          <ul id={ids.errors} className="import-form__errors field__error">
            {parsed.errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        <small id={ids.hint} className="muted">
          {t('imports.linksHint')}
        </small>
        <p id={ids.summary} className="import-form__summary" aria-live="polite">
          {text.trim() ? describeImportLines(parsed) : ''}
        </p>
        <div className="form__actions import-form__actions">
          <button type="submit" className="button button--primary" disabled={ready === 0 || optionsInvalid || sending}>
            {sending
              ? t('imports.sending')
              : ready > 1
                ? t('imports.importMany', { links: formatCount(ready, locale) })
                : t('imports.importOne')}
          </button>
          <p className="import-form__result" role="status">
            {result}
          </p>
        </div>
        <ErrorNote error={error} onDismiss={() => setError(null)} />
      </div>

      <fieldset className="import-form__options">
        <legend>{t('imports.options')}</legend>
        <TextField
          label={t('imports.name')}
          value={options.name}
          max={REMOTE_NAME_MAX}
          error={optionErrors.name}
          hint={t('imports.nameHint')}
          onChange={(name) => update({ name })}
        />
        <TextField
          label={t('imports.description')}
          multiline
          value={options.description}
          max={DESCRIPTION_MAX}
          error={optionErrors.description}
          onChange={(description) => update({ description })}
        />
        <VisibilityFields name="import-visibility" value={options} onChange={update} />
        <TextField
          label={t('imports.password')}
          type="password"
          autoComplete="new-password"
          value={options.password}
          error={optionErrors.password}
          hint={t('imports.passwordHint')}
          onChange={(password) => update({ password })}
        />
        <TextField
          label={t('imports.folderId')}
          inputMode="numeric"
          value={options.folderId}
          error={optionErrors.folderId}
          hint={t('imports.folderIdHint')}
          onChange={(folderId) => update({ folderId })}
        />
        <CountryPicker
          legend={t('imports.blocked')}
          hint={t('imports.blockedHint')}
          value={options.blockedCountries}
          max={BLOCKED_COUNTRIES_MAX}
          error={optionErrors.blockedCountries}
          onChange={(blockedCountries) => update({ blockedCountries })}
        />
      </fieldset>
    </form>
  );
}
