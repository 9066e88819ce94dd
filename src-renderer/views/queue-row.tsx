import { memo } from 'react';
import { Trans } from 'react-i18next';
import type { UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { formatBytes } from '../../src-shared/model/format.js';
import { useBridge } from '../bridge/bridge-context.js';
import { MiddleEllipsis } from '../components/middle-ellipsis.js';
import { ProgressBar } from '../components/progress-bar.js';
import { useNow } from '../components/use-now.js';
import { useLocale } from '../i18n/i18n.js';
import { errorText } from '../i18n/translate.js';
import { describeRow, fileAction, progressText, type RowAction, type RowProgress } from '../text/queue-row-text.js';
import { gateOpensAt } from '../store/rate-limits-store.js';
import { useStore } from '../store/store.js';
import { useStores } from '../store/stores.js';

/** What a row's buttons ask for: its own actions, and the file itself (shown in its folder, its path or name copied). */
export type QueueRowAction = RowAction | ReturnType<typeof fileAction>;

/**
 * The row at `index`: its item from the queue store, in words as of now.
 * It renders again when its item changes (a state), when what its words
 * depend on changes (the queue's pause, its account's token, its account's
 * gate closing or opening: not each request's new budget),
 * and each second while bytes, a speed, a time left or a countdown move
 * (rows tick at different moments of the second, by item id); only its bar
 * follows each progress batch. Memoized, so scrolling renders only the rows
 * that came into view.
 */
export const QueueRow = memo(function QueueRow({
  index,
  onAction,
}: {
  index: number;
  onAction(item: UploadItemView, action: QueueRowAction): void;
}) {
  const { queue, queueStatus, accounts, rateLimits, folderStatus } = useStores();
  const { t, locale } = useLocale();
  const item = useStore(queue, () => queue.at(index));
  const status = useStore(queueStatus, (read) => read.data);
  const blocked = useStore(accounts, (read) => read.data?.find((account) => account.id === item?.accountId)?.blocked);
  const signedOut = useStore(accounts, (read) => !!read.data?.every((account) => account.id !== item?.accountId));
  const folderPaused = useStore(folderStatus, (read) =>
    item?.folderId == null ? false : (read.data?.find((folder) => folder.id === item.folderId)?.paused ?? false),
  );
  const gateOpens = useStore(rateLimits, (limits) => gateOpensAt(item && limits.get(item.accountId)));
  const gateReason = useStore(rateLimits, (limits) => (item && limits.get(item.accountId)?.view.gateReason) ?? null);
  const state = item && queue.stateOf(item);
  const changesWithTime = state?.kind === 'uploading' || state?.kind === 'retrying' || gateOpens > Date.now();
  const now = useNow(changesWithTime ? 1_000 : null, item?.id);
  if (!item || !state) {
    return (
      <div className="queue-row queue-row--loading" aria-busy="true">
        <span className="muted">{t('common.loading')}</span>
      </div>
    );
  }
  const uploading = state.kind === 'uploading' ? state : null;
  const text = describeRow(
    { ...item, state },
    {
      now,
      queuePaused: Boolean(status?.pause),
      folderPaused,
      queueHold: status?.hold ?? null,
      accountBlocked: blocked ? errorText(blocked) : null,
      accountSignedOut: signedOut,
      accountGate: gateOpens > now ? (gateReason ?? 'rate-limited') : null,
      speed: uploading && queue.speedOf(item.id, now),
      eta: uploading && queue.etaOf(item.id, now, uploading.totalBytes),
      locale,
    },
  );
  const name = item.fileName;
  return (
    <div className={`queue-row queue-row--${text.tone}`}>
      <div className="queue-row__main">
        <div className="queue-row__title">
          <MiddleEllipsis className="queue-row__name" text={name} />
          <span className="queue-row__size muted">{formatBytes(item.size, locale)}</span>
          {/* words in an array: React sets their text node's value, not the element's textContent, which
              makes a new node and layout object (the commit of a progress batch took twice as long) */}
          <span className={`queue-row__state queue-row__state--${text.tone}`}>{[text.state]}</span>
        </div>
        <RowBar
          id={item.id}
          running={uploading !== null}
          progress={text.progress}
          said={progressText(text.progress, locale)}
          label={t('queue.progressOf', { name })}
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
          <p className="queue-row__detail muted">{[text.detail ?? '\u00a0']}</p>
        )}
      </div>
      <RowButtons index={index} name={name} actions={text.actions} fromBrowser={item.fromBrowser} onAction={onAction} />
    </div>
  );
});

/** A row's bar: a running item's fills move with each progress batch (10 Hz); what it says, with the row's words. */
function RowBar(props: {
  id: number;
  running: boolean;
  progress: RowProgress;
  said: string | undefined;
  label: string;
}) {
  const { queue } = useStores();
  const live = useStore(queue.live, (states) => (props.running ? states.get(props.id) : undefined));
  const fills =
    live?.kind === 'uploading'
      ? { confirmed: live.ackedBytes, sent: live.sentBytes, max: live.totalBytes || props.progress.max }
      : props.progress;
  return <ProgressBar {...fills} label={props.label} said={{ sent: props.progress.sent, text: props.said }} />;
}

/**
 * A row's buttons, drawn again only when they change (not while the row's
 * words move); each acts on the item as it is when clicked.
 */
const RowButtons = memo(function RowButtons(props: {
  index: number;
  name: string;
  actions: readonly RowAction[];
  fromBrowser: boolean;
  onAction(item: UploadItemView, action: QueueRowAction): void;
}) {
  const { index, name, onAction } = props;
  const { queue } = useStores();
  const { capabilities } = useBridge();
  const { t } = useLocale();
  const local = fileAction(props, capabilities);
  const act = (action: QueueRowAction) => {
    const item = queue.at(index);
    if (item) onAction(item, action);
  };
  return (
    <div className="queue-row__actions">
      {props.actions.map((action) => (
        <button
          key={action}
          type="button"
          className={`button button--small${action === 'copyLink' || action === 'openWatch' ? ' button--primary' : ''}`}
          aria-label={t(`queue.actionLabels.${action}`, { name })}
          onClick={() => act(action)}
        >
          {t(`queue.actions.${action}`)}
        </button>
      ))}
      <button
        type="button"
        className="button button--small button--quiet"
        aria-label={t(`queue.actionLabels.${local}`, { name })}
        onClick={() => act(local)}
      >
        {t(`queue.actions.${local}`)}
      </button>
    </div>
  );
});
