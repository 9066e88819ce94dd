import { useId, useState } from 'react';
import type { AccountView, FileWhy, FileWhyAction } from '../../../src-shared/ipc/ipc-contract.js';
import { fileWhyWords } from '../../../src-shared/model/file-why-words.js';
import { useAction } from '../../bridge/bridge-context.js';
import { ErrorNote } from '../../components/error-note.js';
import { useLocale } from '../../i18n/i18n.js';
import { errorText, translate } from '../../i18n/translate.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';

/**
 * "Find a file" on the Folders view: a local path in, "why this file?" out
 * (folders:why), with the actions it offers as buttons. After an action the
 * answer is asked again, so it shows what holds now.
 */
export function FindFile({ account }: { account: AccountView }) {
  const { t } = useLocale();
  const stores = useStores();
  const folders = useStore(stores.folders, (read) => read.data);
  const [path, setPath] = useState('');
  const [answer, setAnswer] = useState<FileWhy | null>(null);
  const [done, setDone] = useState(false);
  const ask = useAction();
  const act = useAction();
  const id = useId();

  async function explain(target: string) {
    setDone(false);
    const why = await ask.run(() => stores.folders.why(target));
    setAnswer(why ?? null);
  }

  async function run(action: FileWhyAction, file: string) {
    const ran = await act.run(async () => {
      if (action.kind === 'retry') return stores.queue.retry(action.itemId);
      if (action.kind === 'uploadAnyway') return stores.queue.addPaths(action.accountId ?? account.id, [file], true);
      const folder = folders?.find((candidate) => candidate.id === action.folderId);
      if (!folder) return undefined;
      const ignoreGlobs = folder.options.ignoreGlobs.filter((glob) => glob !== action.pattern);
      return stores.folders.update(folder.id, { ...folder.options, ignoreGlobs });
    });
    if (ran === undefined) return;
    await explain(file);
    setDone(true);
  }

  return (
    <section className="card find-file" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('why.findTitle')}</h2>
      <form
        role="search"
        aria-labelledby={`${id}-title`}
        className="find-file__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (path.trim()) void explain(path.trim());
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
        <button type="submit" className="button" disabled={ask.busy || !path.trim()}>
          {t('why.find')}
        </button>
      </form>
      <p id={`${id}-hint`} className="muted">
        {t('why.findHint')}
      </p>
      <ErrorNote error={ask.error ?? act.error} onDismiss={act.error ? act.clearError : undefined} />
      {answer && <FileWhyAnswer answer={answer} busy={act.busy} onAction={(action) => void run(action, answer.path)} />}
      <p role="status" className={done ? 'find-file__done' : 'visually-hidden'}>
        {done ? t('why.done') : ''}
      </p>
    </section>
  );
}

/** The answer as rows of a list, then the actions it offers. */
export function FileWhyAnswer(props: { answer: FileWhy; busy: boolean; onAction: (action: FileWhyAction) => void }) {
  const { answer } = props;
  const { t, locale } = useLocale();
  const words = fileWhyWords(answer);
  const when = (at: number) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  const rows: [string, React.ReactNode][] = [
    [t('why.labelFolder'), translate(words.folder)],
    [t('why.labelStatus'), translate(words.verdict)],
  ];
  const { verdict } = answer;
  if (verdict.kind === 'failed' || verdict.kind === 'inQueue') {
    const state = verdict.item.state;
    const problem = state.kind === 'failed' ? state.reason : state.kind === 'retrying' ? state.lastError : null;
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
    <div className="find-file__answer">
      <p className="find-file__file">
        <code>{answer.path}</code>
      </p>
      <dl aria-label={t('why.resultLabel', { path: answer.path })}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {answer.actions.length > 0 && (
        <div className="find-file__actions" role="group" aria-label={t('why.labelActions')}>
          {answer.actions.map((action) => (
            <button
              key={action.kind}
              type="button"
              className="button"
              disabled={props.busy}
              onClick={() => props.onAction(action)}
            >
              {action.kind === 'removeRule'
                ? t('why.removeRule', { pattern: action.pattern })
                : t(`why.${action.kind}`)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
