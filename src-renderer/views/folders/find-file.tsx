import { useId, useState } from 'react';
import type { FileWhy, FileWhyAction } from '../../../src-shared/ipc/ipc-contract.js';
import { fileWhyWords, whyProblem } from '../../../src-shared/model/file-why-words.js';
import { dateTimeFormat } from '../../../src-shared/model/format.js';
import { useAction } from '../../bridge/bridge-context.js';
import { ErrorNote } from '../../components/error-note.js';
import { useLocale } from '../../i18n/i18n.js';
import { errorText, translate } from '../../i18n/translate.js';
import { useStores } from '../../store/stores.js';

/**
 * "Why this file?" (folders:why) for a view: the answer for a path, and its
 * actions run through the stores. After an action the answer is asked
 * again, so it shows what holds now. `accountId`: where Upload anyway sends
 * a file outside every watched folder.
 */
function useFileWhy(accountId: string) {
  const stores = useStores();
  const [answer, setAnswer] = useState<FileWhy | null>(null);
  const [done, setDone] = useState(false);
  const ask = useAction();
  const act = useAction();

  async function explain(path: string) {
    setDone(false);
    const why = await ask.run(() => stores.folders.why(path));
    setAnswer(why ?? null);
  }

  async function run(action: FileWhyAction, path: string) {
    const ran = await act.run(async () => {
      if (action.kind === 'retry') return stores.queue.retry(action.itemId);
      if (action.kind === 'uploadAnyway') return stores.queue.addPaths(action.accountId ?? accountId, [path], true);
      const folder = stores.folders.get().data?.find((candidate) => candidate.id === action.folderId);
      if (!folder) return undefined;
      const ignoreGlobs = folder.options.ignoreGlobs.filter((glob) => glob !== action.pattern);
      return stores.folders.update(folder.id, { ...folder.options, ignoreGlobs });
    });
    if (ran === undefined) return;
    await explain(path);
    setDone(true);
  }

  return { answer, done, ask, act, explain, run };
}

/** A path in, "why this file?" out: Find a file on the Folders view. */
export function FindFile({ accountId }: { accountId: string }) {
  const { t } = useLocale();
  const [path, setPath] = useState('');
  const why = useFileWhy(accountId);
  const id = useId();

  return (
    <section className="card find-file" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('why.findTitle')}</h2>
      <form
        role="search"
        aria-labelledby={`${id}-title`}
        className="find-file__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (path.trim()) void why.explain(path.trim());
        }}
      >
        <label htmlFor={`${id}-path`}>{t('why.findLabel')}</label>
        <input
          id={`${id}-path`}
          type="search"
          className="find-file__path"
          aria-describedby={`${id}-hint`}
          spellCheck={false}
          value={path}
          onChange={(event) => setPath(event.target.value)}
        />
        <button type="submit" className="button" disabled={why.ask.busy || !path.trim()}>
          {t('why.find')}
        </button>
      </form>
      <p id={`${id}-hint`} className="muted">
        {t('why.findHint')}
      </p>
      <FileWhyPanel why={why} />
    </section>
  );
}

/** A file's row of a folder card opens the same answer, under the card's list of files. */
export function useFileRowWhy(accountId: string) {
  const why = useFileWhy(accountId);
  const [open, setOpen] = useState(false);
  return {
    open: (path: string) => {
      setOpen(true);
      void why.explain(path);
    },
    panel: open ? <FileWhyPanel why={why} onClose={() => setOpen(false)} /> : null,
  };
}

/** The answer as rows of a list, then its actions as buttons, the errors, and "Done." after an action. */
function FileWhyPanel({ why, onClose }: { why: ReturnType<typeof useFileWhy>; onClose?: () => void }) {
  const { t } = useLocale();
  const { answer, done, ask, act } = why;
  return (
    <>
      <ErrorNote error={ask.error ?? act.error} onDismiss={act.error ? act.clearError : undefined} />
      {answer && (
        <div className="find-file__answer">
          <p className="find-file__file">
            <code>{answer.path}</code>
          </p>
          <AnswerRows answer={answer} />
          {(answer.actions.length > 0 || onClose) && (
            <div className="find-file__actions" role="group" aria-label={t('why.labelActions')}>
              {answer.actions.map((action) => (
                <button
                  key={action.kind}
                  type="button"
                  className="button"
                  disabled={act.busy}
                  onClick={() => void why.run(action, answer.path)}
                >
                  {action.kind === 'removeRule'
                    ? t('why.removeRule', { pattern: action.pattern })
                    : t(`why.${action.kind}`)}
                </button>
              ))}
              {onClose && (
                <button type="button" className="button button--quiet" onClick={onClose}>
                  {t('why.close')}
                </button>
              )}
            </div>
          )}
        </div>
      )}
      <p role="status" className={done ? 'find-file__done' : 'visually-hidden'}>
        {done ? t('why.done') : ''}
      </p>
    </>
  );
}

function AnswerRows({ answer }: { answer: FileWhy }) {
  const { t, locale } = useLocale();
  const words = fileWhyWords(answer, locale);
  const when = (at: number) => dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  const rows: [string, React.ReactNode][] = [
    [t('why.labelFolder'), translate(words.folder)],
    [t('why.labelStatus'), translate(words.verdict)],
  ];
  const { verdict } = answer;
  if (verdict.kind === 'failed' || verdict.kind === 'inQueue') {
    const state = verdict.item.state;
    const problem = whyProblem(answer);
    if (problem) rows.push([t('why.labelReason'), errorText(problem)]);
    if (problem?.requestId) rows.push([t('why.labelRequestId'), <code key="id">{problem.requestId}</code>]);
    if (state.kind === 'retrying') rows.push([t('why.labelRetryAt'), when(state.retryAt)]);
  }
  if (verdict.kind === 'uploaded') {
    if (verdict.at !== null) rows.push([t('why.labelUploadedAt'), when(verdict.at)]);
    rows.push([t('why.labelOnService'), verdict.name ?? verdict.fileId]);
    if (verdict.link) {
      const link = (
        <a key="link" href={verdict.link} target="_blank" rel="noreferrer noopener">
          {verdict.link}
        </a>
      );
      rows.push([t('why.labelLink'), link]);
    }
  }
  rows.push([t('why.labelNext'), translate(words.next)]);
  return (
    <dl aria-label={t('why.resultLabel', { path: answer.path })}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
