import { setTimeout as sleep } from 'node:timers/promises';
import {
  FINAL_REMOTE_JOB_STATUSES,
  JobIdParamsSchema,
  describeErrorValue,
  type RemoteJob,
} from '../../../src-shared/api/index.js';
import { remoteUrlProblem } from '../../../src-shared/model/remote-url-problem.js';
import { ContractError } from '../../../src-shared/ipc/contract-client.js';
import { refusedLinks } from '../../../src-shared/model/field-reasons.js';
import { ImportRequestSchema } from '../../../src-shared/model/visibility.js';
import { intFlag, visibilityFlag } from '../cli-args.js';
import { UsageError, describeError, line, table } from '../cli-output.js';
import { defaultAccount, output, type CommandContext } from '../command-context.js';
import { flagProblems } from '../flag-problems.js';

/** The command-line flag of each field of an import's request. */
const IMPORT_FLAGS = { name: '--name', description: '--description', blocked_countries: '--blocked-countries' };
const EXAMPLE_LINK = 'https://videos.example.com/holiday.mp4';

/** How often `import --wait` asks after each job still running, and for how long at most. */
const WAIT_POLL_MS = 2_000;
const WAIT_AT_MOST_MS = 6 * 3_600_000;

/** `import URL…` and `jobs ls | show ID | cancel ID | retry ID`: the service fetches files from links. */
export async function run(command: string, rest: string[], context: CommandContext): Promise<number> {
  return command === 'import' ? importLinks(rest, context) : jobs(rest, context);
}

async function importLinks(urls: string[], context: CommandContext): Promise<number> {
  const { contract, flags } = context;
  if (urls.length === 0) throw new UsageError('import needs at least one URL.');
  // each link by the import box's rules, counted as the person typed them, from 1
  const badLinks = urls.flatMap((url, index) => {
    const problem = remoteUrlProblem(url);
    // a user name and password typed into a link are not echoed back
    const shown = url.replace(/\/\/[^/@]*@/, '//…@');
    return problem ? [`  link ${index + 1} of ${urls.length}, ${shown}: ${problem}`] : [];
  });
  if (badLinks.length > 0) {
    throw new UsageError(
      ['Cannot import these links:', ...badLinks, `Type each link in full, e.g. ${EXAMPLE_LINK}`].join('\n'),
    );
  }
  const input = {
    urls,
    name: flags.name,
    description: flags.description,
    visibility: visibilityFlag(flags),
    folder_id: intFlag(flags['folder-id'], 'folder-id'),
    blocked_countries: flags['blocked-countries']
      ?.split(',')
      .map((code) => code.trim())
      .filter(Boolean),
  };
  const body = ImportRequestSchema.safeParse(input);
  if (!body.success) {
    throw new UsageError(['Cannot import:', ...flagProblems(body.error, input, IMPORT_FLAGS)].join('\n'));
  }
  const { id: accountId } = await defaultAccount(context);
  let jobsList: RemoteJob[];
  try {
    jobsList = await contract.invoke('imports:create', { accountId, body: body.data });
  } catch (error) {
    return refused(error, urls, context);
  }
  if (flags.wait) {
    const deadline = Date.now() + WAIT_AT_MOST_MS;
    while (jobsList.some((job) => !FINAL_REMOTE_JOB_STATUSES.has(job.status)) && Date.now() < deadline) {
      await sleep(WAIT_POLL_MS);
      jobsList = await Promise.all(
        jobsList.map((job) =>
          FINAL_REMOTE_JOB_STATUSES.has(job.status)
            ? job
            : contract.invoke('imports:get', { accountId, jobId: job.id }),
        ),
      );
    }
  }
  output(context, { jobs: jobsList }, () => table(jobsList.map(jobRow)));
  return flags.wait && jobsList.some((job) => job.status !== 'completed') ? 1 : 0;
}

/**
 * The service refused the batch: when it named the links it refused
 * (`urls.N`), one line each, with its place on the command line and the
 * service's reason, after the refusal itself; with --json they are on stdout
 * too. Anything else is thrown on, for the usual one line.
 */
function refused(error: unknown, urls: string[], context: CommandContext): number {
  const links = error instanceof ContractError ? refusedLinks(error, urls) : [];
  if (!(error instanceof ContractError) || links.length === 0) throw error;
  line(context.io.stderr, `Error: ${describeError(error)}`);
  for (const { index, url, reasons } of links) {
    line(context.io.stderr, `  link ${index + 1} of ${urls.length}, ${url}: ${reasons.join(' ')}`);
  }
  if (context.flags.json) {
    const refusedJson = links.map(({ index, url, reasons }) => ({ position: index + 1, url, reasons }));
    line(context.io.stdout, JSON.stringify({ error: error.toIpcError(), refused: refusedJson }));
  }
  return 1;
}

async function jobs(rest: string[], context: CommandContext): Promise<number> {
  const { contract } = context;
  const [action = 'ls', id] = rest;
  const jobRef = async () => {
    if (!id) throw new UsageError(`jobs ${action} needs a job ID (media-sync jobs ls lists them).`);
    if (!JobIdParamsSchema.safeParse({ id }).success) {
      throw new UsageError(
        `"${id}" is not a job ID: a job ID looks like 3f2b6c1e-8a4d-4f0e-9c7a-1b2c3d4e5f60 (media-sync jobs ls lists them).`,
      );
    }
    return { accountId: (await defaultAccount(context)).id, jobId: id };
  };
  const show = (job: RemoteJob) => {
    output(context, job, () => table([jobRow(job)]));
    return 0;
  };
  switch (action) {
    case 'ls': {
      const { id: accountId } = await defaultAccount(context);
      const page = await contract.invoke('imports:list', { accountId, page: intFlag(context.flags.page, 'page') });
      output(context, page, () => (page.data.length === 0 ? 'No imports.' : table(page.data.map(jobRow))));
      return 0;
    }
    case 'show':
      return show(await contract.invoke('imports:get', await jobRef()));
    case 'cancel':
      return show(await contract.invoke('imports:cancel', await jobRef()));
    case 'retry':
      return show(await contract.invoke('imports:retry', await jobRef()));
    default:
      throw new UsageError(`Unknown jobs action "${action}".`);
  }
}

function jobRow(job: RemoteJob): string[] {
  const progress = job.progress_percent === null ? '' : `${Math.round(job.progress_percent)}%`;
  const error = describeErrorValue(job.error);
  return [job.id, job.status, job.stage, progress, job.name, job.file_id ?? '', error ?? ''];
}
