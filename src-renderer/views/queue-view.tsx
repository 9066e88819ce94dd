import { useCallback, useState, type ReactNode } from 'react';
import { Trans } from 'react-i18next';
import type { AccountView, QueueStatus, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { useAction, useBridge } from '../bridge/bridge-context.js';
import { writeClipboard } from '../bridge/clipboard.js';
import { AddFilesButton } from '../components/drop-upload.js';
import { ErrorNote } from '../components/error-note.js';
import { PauseMenu, type PauseAllRequest } from '../components/pause-menu.js';
import { RateLimitIndicator } from '../components/rate-limit-indicator.js';
import { useNarrowWindow } from '../components/use-narrow-window.js';
import { useNow } from '../components/use-now.js';
import { VirtualList } from '../components/virtual-list.js';
import { WhenDoneSelect, type WhenDoneChoice } from '../components/when-done-select.js';
import { useLocale } from '../i18n/i18n.js';
import { accountLabel } from '../text/account-label.js';
import { queueHoldText, queuePausedText } from '../text/queue-row-text.js';
import { formatRate } from '../../src-shared/model/format.js';
import { useStore } from '../store/store.js';
import { useStores } from '../store/stores.js';
import { QueueRow, type QueueRowAction } from './queue-row.js';
import './queue-view.css';

/** Must match `.queue-row` in queue-view.css: in a narrow window a row takes more lines. */
const ROW_HEIGHT = 88;
const NARROW_ROW_HEIGHT = 168;

/**
 * The upload queue: every item, live, in a virtualized list that stays
 * smooth with 10,000 of them. The rows come from the queue store, which
 * loads pages as they scroll into view and keeps them for the page's life.
 */
export function QueueView({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
  const { capabilities } = useBridge();
  const { queue, queueStatus, files } = useStores();
  const pageError = useStore(queue, (state) => state.error);
  const status = useStore(queueStatus);
  const action = useAction();
  const { run } = action;
  const [note, setNote] = useState('');
  const { t } = useLocale();

  const onRowAction = useCallback(
    (item: UploadItemView, rowAction: QueueRowAction) =>
      void run(async () => {
        const { id, accountId, fileName: name } = item;
        const follow = item.afterUpload;
        switch (rowAction) {
          case 'pause':
          case 'pauseNow':
            return queue.pause(id);
          case 'pauseAfterChunk':
            return queue.pause(id, { afterChunk: true });
          case 'resume':
            return queue.resume(id);
          case 'cancel':
            return queue.cancel(id);
          case 'retry':
          case 'retryNow':
            return queue.retry(id);
          case 'copyLink': {
            if (item.state.kind !== 'done') return;
            const { url, copied } = await files.copyLink({ accountId, fileId: item.state.fileId }, 'page');
            return setNote(t(copied ? 'queue.copiedLink' : 'queue.linkTo', { name, url }));
          }
          case 'copyWatchLink': {
            const url = follow?.watchUrl;
            if (!url) return;
            // a page in a browser has the address already: only the core that copies it is asked
            const copied = capabilities.canCopyLinks
              ? (await files.copyLink({ accountId, fileId: follow.fileId }, 'watch')).copied
              : await writeClipboard(url);
            return setNote(t(copied ? 'queue.copiedWatchLink' : 'queue.watchLinkOf', { name, url }));
          }
          case 'openWatch':
            if (!follow?.watchUrl) return;
            return files.openWatchPage({ accountId, fileId: follow.fileId }, follow.watchUrl);
          case 'reveal':
            return queue.reveal(id);
          case 'copyPath': {
            const copied = await writeClipboard(item.path);
            return setNote(t(copied ? 'queue.copiedPath' : 'queue.pathOf', { name, path: item.path }));
          }
          case 'copyName': {
            const copied = await writeClipboard(name);
            return setNote(t(copied ? 'queue.copiedName' : 'queue.nameIs', { name }));
          }
        }
      }),
    [run, capabilities, queue, files, t],
  );
  const renderRow = useCallback((index: number) => <QueueRow index={index} onAction={onRowAction} />, [onRowAction]);
  const show = useCallback((start: number, end: number) => queue.show(start, end), [queue]);

  const pauseAll = (request: PauseAllRequest) => void run(() => queueStatus.pauseAll(request));
  const resumeAll = () => void run(() => queueStatus.resumeAll());
  const chooseWhenDone = (choice: WhenDoneChoice) => void run(() => queueStatus.setWhenDone(choice));
  const clearFinished = () =>
    void run(async () => {
      const removed = await queue.clearFinished();
      setNote(removed === 0 ? t('queue.nothingToClear') : t('queue.cleared', { count: removed }));
    });

  return (
    <section className="queue" aria-labelledby="queue-title">
      <div className="queue__head">
        <h1 id="queue-title">{t('queue.title')}</h1>
        <QueueCount />
      </div>
      <div className="toolbar queue__toolbar">
        <PauseOrResume status={status.data} onPause={pauseAll} onResume={resumeAll} />
        <HoldNote status={status.data} />
        <button type="button" className="button" onClick={clearFinished}>
          {t('queue.clearFinished')}
        </button>
        <AddFilesButton />
        <WhenDoneSelect status={status.data} onChoose={chooseWhenDone} />
        <span className="toolbar__spacer" />
        <BandwidthIndicator status={status.data} />
      </div>
      <div className="queue__meters">
        <RateLimitIndicator accounts={accounts} />
      </div>
      <ErrorNote error={action.error ?? pageError ?? status.error} onDismiss={action.clearError} />
      <p role="status" className={note ? 'queue__note' : 'visually-hidden'}>
        {note}
      </p>
      <QueueItems account={account} renderRow={renderRow} show={show} />
    </section>
  );
}

/**
 * How many items there are. It follows the queue's length, which grows with
 * each new file, apart from the view: the view and its toolbar rendered with
 * it once per file.
 */
function QueueCount() {
  const { queue } = useStores();
  const total = useStore(queue, (state) => state.total);
  const ready = useStore(queue, (state) => state.ready);
  const { t } = useLocale();
  return (
    <p className="muted queue__count" aria-live="polite">
      {ready ? t('queue.items', { count: total }) : t('common.loading')}
    </p>
  );
}

/** The rows, or what to do when there are none: they follow the queue's length as QueueCount does. */
function QueueItems(props: {
  account: AccountView;
  renderRow: (index: number) => ReactNode;
  show: (start: number, end: number) => void;
}) {
  const { queue } = useStores();
  const total = useStore(queue, (state) => state.total);
  const ready = useStore(queue, (state) => state.ready);
  const narrow = useNarrowWindow();
  const { t } = useLocale();
  if (ready && total === 0) return <EmptyQueue account={props.account} />;
  return (
    <VirtualList
      className="queue__list"
      label={t('queue.listLabel')}
      count={total}
      rowHeight={narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT}
      renderRow={props.renderRow}
      onRangeChange={props.show}
    />
  );
}

function PauseOrResume(props: {
  status: QueueStatus | undefined;
  onPause: (request: PauseAllRequest) => void;
  onResume: () => void;
}) {
  const { t } = useLocale();
  const { queue } = useStores();
  const running = useStore(queue, () => queue.running());
  const paused = queuePausedText(props.status?.pause ?? null);
  if (!paused) return <PauseMenu onPause={props.onPause} afterChunks={running} />;
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
 * Why the app itself holds the queue (the schedule's pause, the battery, its
 * own full disk, with what to do about that), beside the person's own pause
 * and apart from it: Resume all does not lift it, and it ends by itself.
 */
function HoldNote({ status }: { status: QueueStatus | undefined }) {
  const { t, locale } = useLocale();
  const text = status ? queueHoldText(status.hold, { now: Date.now(), locale }) : null;
  return (
    <span className={text ? 'queue__paused' : 'visually-hidden'} role="status">
      {text}
      {status?.hold?.reason === 'dataDiskFull' && <span className="muted"> {t('queue.hold.dataDiskFullDetail')}</span>}
    </span>
  );
}

const LIMIT_KEYS = {
  setting: 'queue.speedLimit',
  schedule: 'queue.speedLimitBySchedule',
  metered: 'queue.speedLimitByMetered',
} as const;

/** The queue's speed, summed over the running items, said again every second while any runs. */
function BandwidthIndicator({ status }: { status: QueueStatus | undefined }) {
  const { queue } = useStores();
  const { locale } = useLocale();
  const running = useStore(queue, () => queue.running());
  const now = useNow(running ? 1_000 : null);
  const limit = status?.bandwidthBytesPerSecond ?? null;
  const key = limit === null ? 'queue.speedNoLimit' : LIMIT_KEYS[status?.bandwidthBy ?? 'setting'];
  return (
    <p className="queue__bandwidth">
      <Trans
        i18nKey={key}
        values={{ speed: formatRate(queue.speed(now), locale), limit: limit === null ? '' : formatRate(limit, locale) }}
        components={{ label: <span className="muted" />, speed: <strong /> }}
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
          <Trans i18nKey="queue.empty.watchFolder" components={{ folders: <a href="#/folders" /> }} />
        </li>
        <li>{t('queue.empty.drop')}</li>
      </ul>
      <p className="muted">{t('queue.empty.account', { account: accountLabel(account) })}</p>
      <AddFilesButton className="button button--primary" />
    </div>
  );
}
