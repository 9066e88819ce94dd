import type { IpcCommandName, IpcRequest } from '../../src-shared/ipc/ipc-contract.js';
import { QUEUE_PAGE_SIZE } from '../model/queue-rows.js';
import type { ViewId } from '../model/routes.js';

/** A command sent before any view asks for it. */
export interface EarlyRequest<N extends IpcCommandName = IpcCommandName> {
  name: N;
  request: IpcRequest<N>;
}

/**
 * What the window asks for first: the shell's accounts and update status,
 * and for the Queue (the view it opens on) its first page, the queue's status
 * and the rate limits. Without this the Queue's requests wait for
 * `account:list` to come back and the shell to render: a second round trip.
 * Only reads: `app:takeIntents`, which consumes what it answers, is never
 * sent early.
 */
export function earlyRequestsFor(view: ViewId): EarlyRequest[] {
  const shell: EarlyRequest[] = [
    { name: 'account:list', request: {} },
    { name: 'app:updateStatus', request: {} },
  ];
  if (view !== 'queue') return shell;
  return [
    ...shell,
    { name: 'uploads:list', request: { offset: 0, limit: QUEUE_PAGE_SIZE } },
    { name: 'uploads:status', request: {} },
    { name: 'app:rateLimits', request: {} },
  ];
}

/** One key per command and request: an early answer is handed to the view that asks the same. */
export function requestKey(name: IpcCommandName, request: unknown): string {
  return `${name} ${JSON.stringify(request)}`;
}
