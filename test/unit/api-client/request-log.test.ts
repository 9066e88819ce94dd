import { describe, expect, it } from 'vitest';
import { RequestLog } from '../../../src-main/api-client/request-log.js';

describe('RequestLog', () => {
  it('keeps the last requests only, newest last, each with its path cut before the query and its request id', () => {
    const log = new RequestLog(3);
    for (let index = 1; index <= 5; index++) {
      log.record(
        'GET',
        `/files?search=clip-${index}.mp4`,
        { status: 200, headers: { 'x-request-id': `r${index}` }, body: {} },
        index,
      );
    }
    log.record('POST', '/files/upload', null, 6);
    log.record('GET', '/account', { status: 401, headers: {}, body: { request_id: 'from-body' } }, 7);
    expect(log.list()).toEqual([
      { at: 5, method: 'GET', path: '/files', status: 200, requestId: 'r5' },
      { at: 6, method: 'POST', path: '/files/upload', status: null, requestId: null },
      { at: 7, method: 'GET', path: '/account', status: 401, requestId: 'from-body' },
    ]);
  });
});
