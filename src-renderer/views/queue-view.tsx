import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Trans } from 'react-i18next';
import type { AccountView, IpcError, QueueStatus, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { formatBytes } from '../../src-shared/model/format.js';
import { writeClipboard } from '../bridge/clipboard.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { useBridge, useConnection, useEvent, useQuery } from '../bridge/bridge-context.js';
import { toIpcError } from '../bridge/bridge-error.js';
import { AddFilesButton } from '../components/drop-upload.js';
import { ErrorNote } from '../components/error-note.js';
import { PauseMenu, type PauseChoice } from '../components/pause-menu.js';
import { LiveText, writeText } from '../components/live-text.js';
import { ProgressBar, progressPercent } from '../components/progress-bar.js';
import { gateLeftMs, RateLimitIndicator, useRateLimits } from '../components/rate-limit-indicator.js';
import { secondClock, useEverySecond } from '../components/use-every-second.js';
import { VirtualList } from '../components/virtual-list.js';
import { useLocale } from '../i18n/i18n.js';
import { accountLabel } from '../model/account-label.js';
import {
  describeRow,
  queueHoldText,
  queuePausedText,
  sameRowShape,
  sameRowText,
  type RowAction,
  type RowText,
} from '../model/queue-row-text.js';
import { QueueRows } from '../model/queue-rows.js';
import { bytesPerSecond, etaSeconds, formatRate, observe, type RateMeter } from '../model/transfer-rate.js';
import { errorText } from '../i18n/translate.js';
import './queue-view.css';

/** The queue's rows, with the first page in when it arrived with the window's first answers. */
function initialRows(bridge: AppBridge): { rows: QueueRows; firstPage: boolean } {
  const rows = new QueueRows();
  const page = bridge.takeArrived?.('uploads:list', { offset: 0, limit: rows.pageSize });
  if (page) rows.applyPage(0, page.value.items, page.value.total);
  return { rows, firstPage: page !== undefined };
}

/** Must match `.queue-row` in queue-view.css. */
const ROW_HEIGHT = 88;

/**
 * The upload queue: every item, live, in a virtualized list that stays
 * smooth with 10,000 of them. Pages load as they scroll into view; item
 * events and progress batches (≤ 10 Hz) update the loaded rows in place.
 */
export function QueueView({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
  const bridge = useBridge();
  const connection = useConnection();
  const [initial] = useState(() => initialRows(bridge));
  const rows = useRef(initial.rows);
  // the first page came with the first render: the connection's first opening need not load it again
  const firstPageShown = useRef(initial.firstPage);
  const [, setVersion] = useState(0);
  const meters = useRef(new Map<number, RateMeter>());
  const range = useRef({ start: 0, end: 30 });
  const [error, setError] = useState<IpcError | null>(null);
  const [note, setNote] = useState('');
  const status = useQuery('uploads:status', {});
  useEvent('uploads:statusChanged', status.set);
  const limits = useRateLimits();
  const { t, locale } = useLocale();

  const changed = useCallback(() => setVersion(rows.current.version), []);

  const loadPage = useCallback(
    (page: number) => {
      const store = rows.current;
      bridge.invoke('uploads:list', { offset: page * store.pageSize, limit: store.pageSize }).then(
        ({ items, total }) => {
          if (rows.current !== store) return;
          store.applyPage(page, items, total);
          for (const item of items) track(meters.current, item, performance.now());
          // the total may have grown into rows already on screen
          for (const next of store.takeMissingPages(range.current.start, range.current.end)) loadPage(next);
          changed();
        },
        (problem: unknown) => {
          store.pageFailed(page);
          setError(toIpcError(problem));
        },
      );
    },
    [bridge, changed],
  );

  const loadVisible = useCallback(
    (start: number, end: number) => {
      range.current = { start, end };
      const store = rows.current;
      if (!store.ready) return;
      for (const page of store.takeMissingPages(start, end)) loadPage(page);
    },
    [loadPage],
  );

  // (re)start from the first page whenever the connection (re)opens
  useEffect(() => {
    if (connection !== 'open') return;
    if (firstPageShown.current) {
      firstPageShown.current = false;
      for (const item of rows.current.loadedItems()) track(meters.current, item, performance.now());
      return;
    }
    rows.current = new QueueRows();
    meters.current.clear();
    changed();
    loadPage(0);
  }, [connection, loadPage, changed]);

  // an item beyond the loaded pages changed: learn the new total from the last page, at most every half second
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refreshEnd = useCallback(() => {
    if (refreshTimer.current) return;
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = null;
      const store = rows.current;
      loadPage(Math.floor(Math.max(0, store.total - 1) / store.pageSize));
    }, 500);
  }, [loadPage]);
  useEffect(
    () => () => {
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
    },
    [],
  );

  useEvent('uploads:itemChanged', (item) => {
    track(meters.current, item, performance.now());
    const outcome = rows.current.applyItem(item);
    if (outcome === 'unknown') refreshEnd();
    if (outcome === 'updated' || outcome === 'appended') changed();
  });
  // at 10 Hz: the moved rows render themselves (LiveQueueRow), the view does not
  useEvent('uploads:progress', (batch) => {
    const at = performance.now();
    const wasIdle = meters.current.size === 0;
    for (const { id, state } of batch) track(meters.current, { id, state }, at);
    rows.current.applyProgress(batch);
    // the first upload running: the speed starts to move with the clock
    if (wasIdle && meters.current.size > 0) changed();
    // what changes with time is written now, into the frame that draws the bars' move
    secondClock.beat();
  });

  async function act(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
    } catch (problem) {
      setError(toIpcError(problem));
    }
  }

  async function rowAction(item: UploadItemView, action: RowAction | 'reveal' | 'copyPath') {
    await act(async () => {
      switch (action) {
        case 'pause':
          return rows.current.applyItem(await bridge.invoke('uploads:pause', { id: item.id }));
        case 'resume':
          return rows.current.applyItem(await bridge.invoke('uploads:resume', { id: item.id }));
        case 'cancel':
          return rows.current.applyItem(await bridge.invoke('uploads:cancel', { id: item.id }));
        case 'retry':
        case 'retryNow':
          return rows.current.applyItem(await bridge.invoke('uploads:retry', { id: item.id }));
        case 'copyLink': {
          if (item.state.kind !== 'done') return;
          const { url } = await bridge.invoke('files:copyLink', {
            accountId: item.accountId,
            fileId: item.state.fileId,
            kind: 'page',
          });
          const copied = await writeClipboard(url);
          return setNote(t(copied ? 'queue.copiedLink' : 'queue.linkTo', { name: item.fileName, url }));
        }
        case 'copyWatchLink': {
          const url = item.afterUpload?.watchUrl;
          if (!url) return;
          // the core copies it in Electron; a browser page writes it itself
          if (bridge.shell === 'electron') {
            await bridge.invoke('files:copyLink', {
              accountId: item.accountId,
              fileId: item.afterUpload!.fileId,
              kind: 'watch',
            });
            return setNote(t('queue.copiedWatchLink', { name: item.fileName, url }));
          }
          const copied = await writeClipboard(url);
          return setNote(t(copied ? 'queue.copiedWatchLink' : 'queue.watchLinkOf', { name: item.fileName, url }));
        }
        case 'openWatch': {
          const follow = item.afterUpload;
          if (!follow?.watchUrl) return;
          if (bridge.shell === 'headless') return void window.open(follow.watchUrl, '_blank', 'noopener');
          return bridge.invoke('files:open', { accountId: item.accountId, fileId: follow.fileId, kind: 'watch' });
        }
        case 'reveal':
          return bridge.invoke('uploads:reveal', { id: item.id });
        case 'copyPath': {
          const copied = await writeClipboard(item.path);
          return setNote(t(copied ? 'queue.copiedPath' : 'queue.pathOf', { name: item.fileName, path: item.path }));
        }
      }
    });
    changed();
  }

  // one callback for every row, so a row whose item and text did not change is not rendered again
  const latestRowAction = useRef(rowAction);
  latestRowAction.current = rowAction;
  const onRowAction = useCallback(
    (item: UploadItemView, action: RowAction | 'reveal' | 'copyPath') => void latestRowAction.current(item, action),
    [],
  );

  async function pauseAll(hours: PauseChoice) {
    await act(async () => status.set(await bridge.invoke('uploads:pauseAll', { hours })));
  }

  async function resumeAll() {
    await act(async () => status.set(await bridge.invoke('uploads:resumeAll', {})));
  }

  async function clearFinished() {
    await act(async () => {
      const { removed } = await bridge.invoke('uploads:clearFinished', {});
      setNote(removed === 0 ? t('queue.nothingToClear') : t('queue.cleared', { count: removed }));
      rows.current = new QueueRows();
      changed();
      loadPage(0);
    });
  }

  const store = rows.current;
  const queuePaused = status.data?.paused ?? false;
  const queueHold = status.data?.hold ?? null;
  // new only when the rows' data changes (a page, an item event, the queue's status): the 1 s clock
  // and progress batches render just the rows they change (LiveQueueRow), not every row on screen
  const context = useMemo<RowContext>(
    () => ({
      store,
      meters: meters.current,
      limits,
      queuePaused,
      queueHold,
      blockedBy: new Map(
        accounts.map((candidate) => [candidate.id, candidate.blocked ? errorText(candidate.blocked) : null]),
      ),
      shell: bridge.shell,
      locale,
      onAction: onRowAction,
    }),
    // store.version: the store changes in place; the view renders at each change that rows must show
    [store, store.version, limits, queuePaused, queueHold, accounts, bridge.shell, locale, onRowAction],
  );
  const renderRow = (index: number) => <LiveQueueRow index={index} context={context} />;

  return (
    <section className="queue" aria-labelledby="queue-title">
      <div className="queue__head">
        <h1 id="queue-title">{t('queue.title')}</h1>
        <p className="muted queue__count" aria-live="polite">
          {store.ready ? t('queue.items', { count: store.total }) : t('common.loading')}
        </p>
      </div>
      <div className="toolbar queue__toolbar">
        <PauseOrResume status={status.data} onPause={pauseAll} onResume={resumeAll} />
        <HoldNote status={status.data} />
        <button type="button" className="button" onClick={() => void clearFinished()}>
          {t('queue.clearFinished')}
        </button>
        <AddFilesButton />
        <span className="toolbar__spacer" />
        <BandwidthIndicator meters={meters.current} status={status.data} />
      </div>
      <div className="queue__meters">
        <LiveRateLimitIndicator accounts={accounts} limits={limits} />
      </div>
      <ErrorNote error={error ?? status.error} onDismiss={() => setError(null)} />
      <p role="status" className={note ? 'queue__note' : 'visually-hidden'}>
        {note}
      </p>
      {store.ready && store.total === 0 ? (
        <EmptyQueue account={account} />
      ) : (
        <VirtualList
          className="queue__list"
          label={t('queue.listLabel')}
          count={store.total}
          rowHeight={ROW_HEIGHT}
          rowKey={(index) => store.at(index)?.id ?? `loading-${index}`}
          renderRow={renderRow}
          onRangeChange={loadVisible}
        />
      )}
    </section>
  );
}

interface RowContext {
  store: QueueRows;
  meters: Map<number, RateMeter>;
  limits: ReturnType<typeof useRateLimits>;
  queuePaused: boolean;
  queueHold: QueueStatus['hold'];
  blockedBy: Map<string, string | null>;
  shell: 'electron' | 'headless';
  /** the UI's locale: a new one renders every row again */
  locale: string;
  onAction: QueueRowProps['onAction'];
}

/**
 * The row at `index`, watching its own item: a change of its state renders
 * it and nothing else; bytes that move (10 Hz while uploading) move its bar
 * and, each second, its words, without a render. Memoized on its props, so
 * scrolling renders only the rows that came into view.
 */
const LiveQueueRow = memo(function LiveQueueRow({ index, context }: { index: number; context: RowContext }) {
  const { store, locale } = context;
  const { t } = useLocale();
  const id = store.at(index)?.id;
  const watch = useCallback(
    (listener: () => void) => (id === undefined ? () => undefined : store.watchItem(id, listener)),
    [store, id],
  );
  const current = () => store.at(index);
  const item = useSyncExternalStore(watch, current, current);
  const watchBar = useCallback(
    (move: (value: number, max: number) => void) =>
      id === undefined ? () => undefined : store.watchProgress(id, (state) => move(state.sentBytes, state.totalBytes)),
    [store, id],
  );
  const [, render] = useReducer((count: number) => count + 1, 0);
  const text = item ? rowText(item, context) : null;
  // what the clock's ticks start from: this render's words, then each tick's
  const shown = useRef(text);
  shown.current = text;
  const latestContext = useRef(context);
  latestContext.current = context;
  // a speed, a time left or a countdown: the row's words change every second
  const gate = item ? context.limits.get(item.accountId) : undefined;
  const changesWithTime =
    item?.state.kind === 'uploading' || item?.state.kind === 'retrying' || gateLeftMs(gate, performance.now()) > 0;
  const watchText = useCallback(
    (write: (next: RowText) => void) => {
      if (!changesWithTime) return () => undefined;
      return secondClock.add(() => {
        const now = store.at(index);
        const before = shown.current;
        if (!now || !before) return;
        const next = rowText(now, latestContext.current);
        if (!sameRowShape(before, next)) return render();
        shown.current = next;
        write(next);
      });
    },
    [changesWithTime, store, index],
  );
  if (!item || !text) {
    return (
      <div className="queue-row queue-row--loading" aria-busy="true">
        <span className="muted">{t('common.loading')}</span>
      </div>
    );
  }
  return (
    <QueueRow
      item={item}
      text={text}
      shell={context.shell}
      locale={locale}
      onAction={context.onAction}
      watchProgress={watchBar}
      watchText={watchText}
    />
  );
});

/** A row's words as of now: its item, the queue's and account's holds, its speed and time left. */
function rowText(item: UploadItemView, context: RowContext): RowText {
  const perfNow = performance.now();
  const gate = context.limits.get(item.accountId);
  const meter = context.meters.get(item.id);
  return describeRow(item, {
    now: Date.now(),
    queuePaused: context.queuePaused,
    queueHold: context.queueHold,
    accountBlocked: context.blockedBy.get(item.accountId) ?? null,
    accountGate: gateLeftMs(gate, perfNow) > 0 ? (gate?.view.gateReason ?? 'rate-limited') : null,
    speed: item.state.kind === 'uploading' ? bytesPerSecond(meter, perfNow) : null,
    eta: item.state.kind === 'uploading' ? etaSeconds(meter, perfNow, item.state.totalBytes) : null,
    locale: context.locale,
  });
}

interface QueueRowProps {
  item: UploadItemView;
  text: RowText;
  shell: 'electron' | 'headless';
  locale: string;
  onAction(item: UploadItemView, action: RowAction | 'reveal' | 'copyPath'): void;
  /** progress batches that only move the bytes: they move the bar, the text follows each second */
  watchProgress(move: (value: number, max: number) => void): () => void;
  /** each second's words, when only they and the bar's value changed: written into the row, not rendered */
  watchText(write: (text: RowText) => void): () => void;
}

/**
 * One row. Memoized on its item (replaced, never changed in place, when an
 * event moves it) and its text: a progress batch renders the rows it moved,
 * not every row on screen.
 */
const QueueRow = memo(
  function QueueRow({ item, text, shell, locale, onAction, watchProgress, watchText }: QueueRowProps) {
    const { t } = useLocale();
    const name = item.fileName;
    const state = useRef<HTMLSpanElement>(null);
    const detail = useRef<HTMLParagraphElement>(null);
    const bar = useRef<HTMLDivElement>(null);
    const write = useCallback((next: RowText) => {
      writeText(state.current, next.state);
      writeText(detail.current, next.detail ?? '\u00a0');
      bar.current?.setAttribute('aria-valuenow', String(progressPercent(next.progress.value, next.progress.max)));
    }, []);
    useLayoutEffect(() => watchText(write), [watchText, write]);
    // a tick may have written newer words since React last did: React writes only what changed between its renders
    useLayoutEffect(() => write(text));
    // the buttons act on the item as it is when clicked, without rendering again each time it moves
    const latest = useRef(item);
    useLayoutEffect(() => {
      latest.current = item;
    });
    const current = useCallback(() => latest.current, []);
    return (
      <div className={`queue-row queue-row--${text.tone}`}>
        <div className="queue-row__main">
          <div className="queue-row__title">
            {/* elementtiming: the paint of the first rows is what `npm run bench` times (Element Timing API) */}
            <span className="queue-row__name" title={item.path} elementtiming="queue-row">
              {item.fileName}
            </span>
            <span className="queue-row__size muted">{formatBytes(item.size, locale)}</span>
            <span ref={state} className={`queue-row__state queue-row__state--${text.tone}`}>
              {text.state}
            </span>
          </div>
          <ProgressBar
            ref={bar}
            value={text.progress.value}
            max={text.progress.max}
            label={t('queue.progressOf', { name })}
            watch={watchProgress}
          />
          {text.problem ? (
            <p className="queue-row__problem">
              {text.problem.message}
              {text.problem.requestId && (
                <span className="muted">
                  <Trans
                    i18nKey="queue.requestId"
                    values={{ id: text.problem.requestId }}
                    components={{ code: <code /> }}
                  />
                </span>
              )}
            </p>
          ) : (
            <p ref={detail} className="queue-row__detail muted">
              {text.detail ?? '\u00a0'}
            </p>
          )}
        </div>
        <RowActions
          actions={text.actions}
          name={name}
          shell={shell}
          locale={locale}
          current={current}
          onAction={onAction}
        />
      </div>
    );
  },
  (a, b) =>
    a.item === b.item &&
    a.shell === b.shell &&
    a.locale === b.locale &&
    a.onAction === b.onAction &&
    a.watchProgress === b.watchProgress &&
    a.watchText === b.watchText &&
    sameRowText(a.text, b.text),
);

interface RowActionsProps {
  actions: readonly RowAction[];
  name: string;
  shell: 'electron' | 'headless';
  locale: string;
  /** the row's item now */
  current(): UploadItemView;
  onAction: QueueRowProps['onAction'];
}

/**
 * A row's buttons: the same from one second to the next while its bytes and
 * speed move, so the 1 s clock renders the row's text and not these.
 */
const RowActions = memo(
  function RowActions({ actions, name, shell, current, onAction }: RowActionsProps) {
    const { t } = useLocale();
    // the file itself: shown in its folder by the desktop app, its path copied in a browser
    const local = shell === 'electron' ? 'reveal' : 'copyPath';
    return (
      <div className="queue-row__actions">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={`button button--small${action === 'copyLink' || action === 'openWatch' ? ' button--primary' : ''}`}
            aria-label={t(`queue.actionLabels.${action}`, { name })}
            onClick={() => onAction(current(), action)}
          >
            {t(`queue.actions.${action}`)}
          </button>
        ))}
        <button
          type="button"
          className="button button--small button--quiet"
          aria-label={t(`queue.actionLabels.${local}`, { name })}
          onClick={() => onAction(current(), local)}
        >
          {t(`queue.actions.${local}`)}
        </button>
      </div>
    );
  },
  (a, b) =>
    a.name === b.name &&
    a.shell === b.shell &&
    a.locale === b.locale &&
    a.current === b.current &&
    a.onAction === b.onAction &&
    a.actions.join() === b.actions.join(),
);

function PauseOrResume(props: {
  status: QueueStatus | undefined;
  onPause: (hours: PauseChoice) => void;
  onResume: () => void;
}) {
  const { t } = useLocale();
  const paused = props.status ? queuePausedText(props.status) : null;
  if (!paused) return <PauseMenu onPause={props.onPause} />;
  return (
    <>
      <button type="button" className="button button--primary" onClick={props.onResume}>
        {t('queue.resumeAll')}
      </button>
      <span className="queue__paused" role="status">
        {paused}
      </span>
    </>
  );
}

/**
 * Why the app itself holds the queue (the schedule's pause, the battery),
 * beside the person's own pause and apart from it: Resume all does not lift
 * it, and it ends by itself.
 */
function HoldNote({ status }: { status: QueueStatus | undefined }) {
  const { locale } = useLocale();
  const text = status ? queueHoldText(status.hold, Date.now(), undefined, locale) : null;
  return (
    <span className={text ? 'queue__paused' : 'visually-hidden'} role="status">
      {text}
    </span>
  );
}

/** The queue's speed, summed over the running items' meters, written again every second. */
function BandwidthIndicator({ meters, status }: { meters: Map<number, RateMeter>; status: QueueStatus | undefined }) {
  const { locale } = useLocale();
  // nothing running: the speed stays 0 and the clock need not write it
  const running = meters.size > 0;
  const speedNow = useCallback(() => {
    const now = performance.now();
    const speed = [...meters.values()].reduce((sum, meter) => sum + (bytesPerSecond(meter, now) ?? 0), 0);
    return formatRate(speed, locale);
  }, [meters, locale]);
  const watchSpeed = useCallback(
    (write: (text: string) => void) => (running ? secondClock.add(() => write(speedNow())) : () => undefined),
    [running, speedNow],
  );
  const limit = status?.bandwidthBytesPerSecond ?? null;
  const bySchedule = status?.bandwidthBySchedule ?? false;
  const key = limit === null ? 'queue.speedNoLimit' : bySchedule ? 'queue.speedLimitBySchedule' : 'queue.speedLimit';
  return (
    <p className="queue__bandwidth">
      <Trans
        i18nKey={key}
        values={{ speed: speedNow(), limit: limit === null ? '' : formatRate(limit, locale) }}
        components={{
          label: <span className="muted" />,
          speed: <LiveText watch={watchSpeed} />,
        }}
      />
    </p>
  );
}

function EmptyQueue({ account }: { account: AccountView }) {
  const { t } = useLocale();
  return (
    <div className="card queue__empty">
      <h2>{t('queue.empty.title')}</h2>
      <p>{t('queue.empty.intro')}</p>
      <ul>
        <li>
          <Trans i18nKey="queue.empty.watchFolder" components={{ settings: <a href="#/settings" /> }} />
        </li>
        <li>{t('queue.empty.drop')}</li>
      </ul>
      <p className="muted">{t('queue.empty.account', { account: accountLabel(account) })}</p>
      <AddFilesButton className="button button--primary" />
    </div>
  );
}

/** Each account's budget, and a gate's countdown moving every second while one is closed. */
function LiveRateLimitIndicator(props: Omit<Parameters<typeof RateLimitIndicator>[0], 'now'>) {
  const now = performance.now();
  useEverySecond([...props.limits.values()].some((entry) => gateLeftMs(entry, now) > 0));
  return <RateLimitIndicator {...props} now={now} />;
}

/** Feeds the speed meter of a running item; forgets it once it stops uploading. */
function track(meters: Map<number, RateMeter>, item: Pick<UploadItemView, 'id' | 'state'>, at: number): void {
  if (item.state.kind === 'uploading') meters.set(item.id, observe(meters.get(item.id), at, item.state.sentBytes));
  else meters.delete(item.id);
}
