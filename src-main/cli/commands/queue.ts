import type { QueueStatus, UploadItemView } from '../../../src-shared/ipc/ipc-contract.js';
import { formatBytes } from '../../../src-shared/model/format.js';
import { PAUSE_HOURS, pauseUntil } from '../../../src-shared/model/queue-pause.js';
import { itemId } from '../cli-args.js';
import { UsageError, describeState, holdText, table } from '../cli-output.js';
import { itemSummary, output, type CommandContext } from '../command-context.js';

/**
 * `queue ls | pause [ID] [--after-chunk] | resume [ID] | retry ID | cancel ID | clear`: the
 * upload queue of whoever owns the data folder, as its window shows it,
 * with the schedule's or the battery's hold.
 */
export async function run(_command: string, rest: string[], context: CommandContext): Promise<number> {
  const { contract, flags } = context;
  const [action = 'ls', idText] = rest;
  const id = idText === undefined ? undefined : itemId(idText, `queue ${action}`);
  const report = (item: UploadItemView) => {
    output(context, itemSummary(item), () => `#${item.id} ${item.fileName}: ${describeState(item)}`);
    return 0;
  };
  switch (action) {
    case 'ls': {
      const { items } = await contract.invoke('uploads:list', { offset: 0, limit: 10_000 });
      const status = await contract.invoke('uploads:status', {});
      output(context, { ...pauseOf(status), items: items.map((item) => itemSummary(item)) }, () => {
        const head =
          (status.pause ? `Queue paused${untilText(status.pause.until)}.\n` : '') +
          (status.hold ? `${holdText(status.hold)}\n` : '');
        if (items.length === 0) return `${head}The queue is empty.`;
        return (
          head + table(items.map((item) => [`#${item.id}`, item.fileName, formatBytes(item.size), describeState(item)]))
        );
      });
      return 0;
    }
    case 'pause': {
      const hours = flags.for === undefined ? null : PAUSE_HOURS.find((preset) => `${preset}h` === flags.for);
      if (hours === undefined) throw new UsageError('--for must be 2h, 8h or 24h.');
      const until = pauseUntil(hours, Date.now());
      const afterChunk = flags['after-chunk'] ?? false;
      if (id !== undefined) return report(await contract.invoke('uploads:pause', { id, until, afterChunk }));
      const status = await contract.invoke('uploads:pauseAll', { until, afterChunk });
      const pausedUntil = untilText(status.pause?.until ?? null, 'resumed');
      output(context, pauseOf(status), () =>
        afterChunk
          ? `Uploads pause once the chunks being sent are confirmed, then wait${pausedUntil}.`
          : `Uploads paused${pausedUntil}.`,
      );
      return 0;
    }
    case 'resume': {
      if (id !== undefined) return report(await contract.invoke('uploads:resume', { id }));
      const status = await contract.invoke('uploads:resumeAll', {});
      output(context, pauseOf(status), () =>
        status.hold ? `Uploads resumed, but they still wait: ${holdText(status.hold)}` : 'Uploads resumed.',
      );
      return 0;
    }
    case 'retry':
      return report(await contract.invoke('uploads:retry', { id: itemId(idText, 'queue retry') }));
    case 'cancel':
      return report(await contract.invoke('uploads:cancel', { id: itemId(idText, 'queue cancel') }));
    case 'clear': {
      const { removed } = await contract.invoke('uploads:clearFinished', {});
      const { cliText } = await import('../cli-words.js');
      output(context, { removed }, () => cliText('cli.cleared', { count: removed }));
      return 0;
    }
    default:
      throw new UsageError(`Unknown queue action "${action}".`);
  }
}

/** The person's pause and the app's hold, for --json. */
function pauseOf(status: QueueStatus) {
  return { pause: status.pause, hold: status.hold };
}

/** ` until 17:00 on …`, or ` until resumed` (`otherwise`), or nothing. */
function untilText(until: number | null, otherwise?: string): string {
  if (until !== null) return ` until ${new Date(until).toLocaleString()}`;
  return otherwise ? ` until ${otherwise}` : '';
}
