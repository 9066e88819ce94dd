import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Trans } from 'react-i18next';
import type { RemoteJob } from '../../src-shared/api/index.js';
import type { AccountView, IpcError } from '../../src-shared/ipc/ipc-contract.js';
import type { ConversionFollow } from '../../src-shared/model/conversion-follow.js';
import { refusedLinks } from '../../src-shared/model/field-reasons.js';
import { toIpcError, useAction, useEvent, useQuery } from '../bridge/bridge-context.js';
import { LatestRead } from '../bridge/latest-read.js';
import { CopyLinkButtons } from '../components/copy-link-buttons.js';
import { CountryPicker } from '../components/country-picker.js';
import { ErrorNote } from '../components/error-note.js';
import { Pagination } from '../components/pagination.js';
import { TextField } from '../components/text-field.js';
import { describeFollow } from '../text/follow-text.js';
import { appendLinks, batches, describeImportLines, parseImportLines } from '../text/import-lines.js';
import {
  BLOCKED_COUNTRIES_MAX,
  EMPTY_IMPORT_OPTIONS,
  REMOTE_NAME_MAX,
  canCancelJob,
  canRetryJob,
  fileHostOf,
  filePageUrl,
  importBody,
  jobErrorText,
  jobMetaText,
  jobProgressText,
  jobStatusText,
  mergeJobs,
  validateImportOptions,
  type ImportOptionsDraft,
} from '../text/import-options.js';
import { DESCRIPTION_MAX } from '../text/file-edit.js';
import { VisibilityFields } from '../components/visibility-fields.js';
import { useLocale } from '../i18n/i18n.js';
import { formatCount } from '../text/file-columns.js';
import { useStore } from '../store/store.js';
import { useStores } from '../store/stores.js';
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

// ---- the jobs -----------------------------------------------------------------------

function JobList({ accountId, created }: { accountId: string; created: RemoteJob[] }) {
  const stores = useStores();
  const [lookups] = useState(() => new LatestRead());
  const [page, setPage] = useState(1);
  const jobs = useQuery('imports:list', { accountId, page });
  const [shown, setShown] = useState<RemoteJob[]>([]);
  const [fileHost, setFileHost] = useState<string | null>(null);
  const [pages, setPages] = useState<Record<string, string>>({});
  const [lookupFailed, setLookupFailed] = useState<Set<string>>(() => new Set());
  const action = useAction();
  const { t, locale } = useLocale();

  useEffect(() => {
    if (jobs.data) setShown(jobs.data.data);
  }, [jobs.data]);
  useEffect(() => {
    if (page === 1 && created.length > 0) setShown((previous) => mergeJobs(previous, created));
  }, [created, page]);
  // the file a completed job made, followed until its conversion is final: found by the service's job and file ids,
  // which are the job's whatever this app calls its account (one signed in again before the account was kept had
  // another id)
  const follows = useStore(stores.conversions, (read) => read.data);
  const followOf = (job: RemoteJob): ConversionFollow | null =>
    follows?.find((f) => f.jobId === job.id && f.fileId === job.file_id) ?? null;
  useEvent('imports:changed', (change) => {
    // the event carries the newest jobs: only the first page takes in ones it does not show yet
    if (change.accountId === accountId) setShown((previous) => mergeJobs(previous, change.jobs, page === 1));
  });

  /*
   * The address of a created file: the spec gives page addresses the form
   * `<file_host>/<file_id>/file`, so one file read tells the host for all.
   * Should a server answer otherwise, each file is read once instead.
   */
  const missing = shown.find(
    (job) => job.status === 'completed' && job.file_id && !pages[job.file_id] && !lookupFailed.has(job.file_id),
  );
  const missingFileId = fileHost ? null : (missing?.file_id ?? null);
  useEffect(() => {
    if (!missingFileId) return;
    const isLatest = lookups.start();
    stores.files.get({ accountId, fileId: missingFileId }).then(
      (file) => {
        if (!isLatest()) return;
        setPages((previous) => ({ ...previous, [file.id]: file.urls.page }));
        const host = fileHostOf(file);
        if (host) setFileHost(host);
      },
      () => isLatest() && setLookupFailed((previous) => new Set(previous).add(missingFileId)),
    );
    return () => lookups.supersede();
  }, [stores, lookups, accountId, missingFileId]);

  const pageOf = (fileId: string) => pages[fileId] ?? (fileHost ? filePageUrl(fileHost, fileId) : null);

  async function act(kind: 'cancel' | 'retry', job: RemoteJob) {
    const ref = { accountId, jobId: job.id };
    const updated = await action.run(() =>
      kind === 'cancel' ? stores.imports.cancel(ref) : stores.imports.retry(ref),
    );
    if (updated) setShown((previous) => mergeJobs(previous, [updated]));
  }

  const meta = jobs.data?.meta;
  return (
    <section className="job-list" aria-labelledby="job-list-heading">
      <div className="toolbar">
        <h2 id="job-list-heading">{t('imports.jobs')}</h2>
        <span className="toolbar__spacer" />
        <button type="button" className="button button--small" onClick={jobs.reload} disabled={jobs.loading}>
          {t('common.refresh')}
        </button>
      </div>
      <p className="muted job-list__note">{t('imports.jobsNote')}</p>
      {jobs.error && <ErrorNote error={jobs.error} />}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      {!jobs.data && !jobs.error && <p className="muted">{t('imports.loading')}</p>}
      {jobs.data && shown.length === 0 && <p className="muted job-list__empty">{t('imports.empty')}</p>}
      {shown.length > 0 && (
        <ul className="job-list__items" aria-label={t('imports.jobsLabel')}>
          {shown.map((job) => (
            <JobRow
              key={job.id}
              accountId={accountId}
              job={job}
              pageUrl={job.file_id ? pageOf(job.file_id) : null}
              follow={followOf(job)}
              busy={action.busy}
              onCancel={() => void act('cancel', job)}
              onRetry={() => void act('retry', job)}
            />
          ))}
        </ul>
      )}
      {meta && meta.last_page > 1 && (
        <Pagination
          label={t('imports.pagesLabel')}
          page={page}
          lastPage={meta.last_page}
          total={meta.total}
          summary={t('imports.pageSummary', {
            page: formatCount(page, locale),
            lastPage: formatCount(meta.last_page, locale),
            total: formatCount(meta.total, locale),
            count: meta.total,
          })}
          busy={jobs.loading}
          onPage={setPage}
        />
      )}
    </section>
  );
}

/** The words of a button that only a screen reader says: "Cancel<hidden> import of holiday.mp4</hidden>". */
const HIDDEN = { hidden: <span className="visually-hidden" /> };

function JobRow(props: {
  accountId: string;
  job: RemoteJob;
  pageUrl: string | null;
  /** the created file's conversion, once the core follows it */
  follow: ConversionFollow | null;
  busy: boolean;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const { job } = props;
  const headingId = useId();
  const { t } = useLocale();
  const progress = jobProgressText(job);
  const error = jobErrorText(job);
  const name = job.name || job.host;
  const after = job.status === 'completed' && props.follow ? describeFollow(props.follow) : null;
  const watchUrl = after?.watchable ? props.follow!.watchUrl : null;
  return (
    <li className={`job job--${job.status}`}>
      <div className="job__head">
        <h3 id={headingId} className="job__name">
          {name}
        </h3>
        <span className={`job__status job__status--${job.status}`}>{jobStatusText(job)}</span>
      </div>
      <p className="job__meta muted">{jobMetaText(job)}</p>
      {(job.status === 'running' || job.status === 'pending') && (
        <progress
          max={100}
          value={job.progress_percent ?? undefined}
          aria-label={t('imports.progressOf', { name })}
          aria-valuetext={progress || undefined}
        />
      )}
      {progress && <p className="job__progress">{progress}</p>}
      {error && job.status !== 'completed' && <p className="field__error job__error">{error}</p>}
      {after && <p className={`job__after job__after--${after.tone}`}>{after.label}</p>}
      {after?.tone === 'warn' && after.detail && <p className="field__error job__error">{after.detail}</p>}
      {job.status === 'completed' && job.file_id ? (
        <CopyLinkButtons
          accountId={props.accountId}
          fileId={job.file_id}
          kinds={watchUrl ? ['page', 'watch'] : ['page']}
          nameForLabel={name}
        >
          {watchUrl && (
            <a
              className="button button--small button--primary"
              href={watchUrl}
              target="_blank"
              rel="noreferrer noopener"
            >
              <Trans i18nKey="imports.openWatch" values={{ name }} components={HIDDEN} />
            </a>
          )}
          {props.pageUrl && (
            <a className="button button--small" href={props.pageUrl} target="_blank" rel="noreferrer noopener">
              <Trans i18nKey="imports.openPage" values={{ name }} components={HIDDEN} />
            </a>
          )}
        </CopyLinkButtons>
      ) : (
        (canCancelJob(job) || canRetryJob(job)) && (
          <div className="form__actions">
            {canCancelJob(job) && (
              <button type="button" className="button button--small" disabled={props.busy} onClick={props.onCancel}>
                <Trans i18nKey="imports.cancel" values={{ name }} components={HIDDEN} />
              </button>
            )}
            {canRetryJob(job) && (
              <button type="button" className="button button--small" disabled={props.busy} onClick={props.onRetry}>
                <Trans i18nKey="imports.retry" values={{ name }} components={HIDDEN} />
              </button>
            )}
          </div>
        )
      )}
    </li>
  );
}
