import { useEffect, useId, useState } from 'react';
import { Trans } from 'react-i18next';
import type { RemoteJob } from '../../src-shared/api/index.js';
import type { ConversionFollow } from '../../src-shared/model/conversion-follow.js';
import { useAction, useEvent, useQuery } from '../bridge/bridge-context.js';
import { LatestRead } from '../bridge/latest-read.js';
import { CopyLinkButtons } from '../components/copy-link-buttons.js';
import { ErrorNote } from '../components/error-note.js';
import { Pagination } from '../components/pagination.js';
import { describeFollow } from '../text/follow-text.js';
import {
  canCancelJob,
  canRetryJob,
  fileHostOf,
  filePageUrl,
  jobErrorText,
  jobMetaText,
  jobProgressText,
  jobStatusText,
  mergeJobs,
} from '../text/import-options.js';
import { useLocale } from '../i18n/i18n.js';
import { formatCount } from '../text/file-columns.js';
import { useStore } from '../store/store.js';
import { useStores } from '../store/stores.js';

/**
 * The account's import jobs, a page at a time, as the core follows them
 * (imports:changed): each with its state, cancel and retry, and the link to
 * the file a completed one created, followed until its conversion is final.
 */
export function JobList({ accountId, created }: { accountId: string; created: RemoteJob[] }) {
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
