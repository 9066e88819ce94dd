import type { QueueStatus } from '../../src-shared/ipc/ipc-contract.js';
import { formatDuration } from '../../src-shared/model/format.js';
import type { WhenDoneAction } from '../../src-shared/model/when-done.js';
import { useLocale } from '../i18n/i18n.js';
import { useNow } from './use-now.js';

/** What the select offers: an action, or nothing (which also cancels a countdown). */
export type WhenDoneChoice = WhenDoneAction | 'nothing';

const COUNTDOWN = {
  sleep: 'queue.whenDone.countdownSleep',
  shutdown: 'queue.whenDone.countdownShutdown',
  quit: 'queue.whenDone.countdownQuit',
} as const;

/**
 * "When done: do nothing / sleep / shut down / quit Media Sync" in the
 * queue's toolbar, for this run of the queue only (the core clears it once
 * used), with the countdown and its Cancel once the queue is done.
 */
export function WhenDoneSelect(props: { status: QueueStatus | undefined; onChoose: (action: WhenDoneChoice) => void }) {
  const { t, locale } = useLocale();
  const whenDone = props.status?.whenDone ?? null;
  const endsAt = whenDone?.countdownEndsAt ?? null;
  useNow(endsAt === null ? null : 1_000);
  return (
    <>
      <label className="field--inline" title={t('queue.whenDone.hint')}>
        <span>{t('queue.whenDone.label')}</span>
        <select
          value={whenDone?.action ?? 'nothing'}
          onChange={(event) => props.onChoose(event.target.value as WhenDoneChoice)}
        >
          <option value="nothing">{t('queue.whenDone.nothing')}</option>
          <option value="sleep">{t('queue.whenDone.sleep')}</option>
          <option value="shutdown">{t('queue.whenDone.shutdown')}</option>
          <option value="quit">{t('queue.whenDone.quit')}</option>
        </select>
      </label>
      {whenDone && endsAt !== null && (
        <>
          <span className="queue__paused" role="status">
            {t(COUNTDOWN[whenDone.action], { time: formatDuration((endsAt - Date.now()) / 1000, locale) })}
          </span>
          <button type="button" className="button button--small" onClick={() => props.onChoose('nothing')}>
            {t('queue.whenDone.cancel')}
          </button>
        </>
      )}
    </>
  );
}
