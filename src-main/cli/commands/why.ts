import { resolve } from 'node:path';
import type { FileWhy, FileWhyAction } from '../../../src-shared/ipc/ipc-contract.js';
import { englishText, message, type MessageKey, type MessageValues } from '../../../src-shared/i18n/message.js';
import { fileWhyWords, whyProblem } from '../../../src-shared/model/file-why-words.js';
import { UsageError, line, table } from '../cli-output.js';
import { output, type CommandContext } from '../command-context.js';

type WhyKey = Extract<MessageKey, `why.${string}`>;
const say = (key: WhyKey, values?: MessageValues) => englishText(message(key, values));

/**
 * `why PATH`: what Media Sync knows about one local file (folders:why): its
 * watched folder and that folder's state, the rule that leaves it alone, its
 * upload, what happens next and the commands that act on it. A relative path
 * is read from the current folder. --json prints the answer and its sentences.
 */
export async function run(_command: string, rest: string[], context: CommandContext): Promise<number> {
  const { contract, io } = context;
  const [given, ...extra] = rest;
  if (given === undefined || extra.length > 0) throw new UsageError('media-sync why takes one path.');
  const why = await contract.invoke('folders:why', { path: given.startsWith('~') ? given : resolve(given) });
  const words = fileWhyWords(why);
  const text = {
    folder: englishText(words.folder),
    verdict: englishText(words.verdict),
    next: englishText(words.next),
  };
  if (contract.mode === 'own' && why.folder && !context.flags.json) {
    line(io.stderr, 'No Media Sync runs on this data folder: its folders are not being watched now.');
  }
  output(context, { ...why, text }, () =>
    [
      why.path,
      table([
        [`${say('why.labelFolder')}:`, text.folder],
        [`${say('why.labelStatus')}:`, text.verdict],
        ...detailRows(why),
        [`${say('why.labelNext')}:`, text.next],
        ...why.actions.map((action, i) => [i === 0 ? `${say('why.labelActions')}:` : '', actionText(action, why)]),
      ]),
    ].join('\n'),
  );
  return 0;
}

/** The reason and request id of a failure, a retry's time, an upload's time, name and link. */
function detailRows(why: FileWhy): string[][] {
  const { verdict } = why;
  const row = (key: WhyKey, value: string) => [`${say(key)}:`, value];
  const when = (at: number) => new Date(at).toLocaleString();
  if (verdict.kind === 'failed' || verdict.kind === 'inQueue') {
    const state = verdict.item.state;
    const problem = whyProblem(why);
    const rows: string[][] = [];
    if (problem) rows.push(row('why.labelReason', problem.text ? englishText(problem.text) : problem.message));
    if (problem?.requestId) rows.push(row('why.labelRequestId', problem.requestId));
    if (state.kind === 'retrying') rows.push(row('why.labelRetryAt', when(state.retryAt)));
    return rows;
  }
  if (verdict.kind !== 'uploaded') return [];
  return [
    ...(verdict.at === null ? [] : [row('why.labelUploadedAt', when(verdict.at))]),
    row('why.labelOnService', verdict.name ? `${verdict.name} (${verdict.fileId})` : verdict.fileId),
    ...(verdict.link ? [row('why.labelLink', verdict.link)] : []),
  ];
}

function actionText(action: FileWhyAction, why: FileWhy): string {
  switch (action.kind) {
    case 'retry':
      return say('why.cliRetry', { id: action.itemId });
    case 'uploadAnyway':
      return say('why.cliUploadAnyway', { path: why.path });
    case 'removeRule':
      return say('why.cliRemoveRule', { pattern: action.pattern, folder: why.folder?.path ?? '' });
  }
}
