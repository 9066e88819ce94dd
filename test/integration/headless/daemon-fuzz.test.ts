import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { startDaemon, type Daemon } from '../../../src-main/headless/daemon.js';
import { sessionProtocols, WsEventSchema, WsResultSchema, type WsResult } from '../../../src-shared/ipc/ws-protocol.js';
import { createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import {
  appState,
  expectPrototypesClean,
  memoryLog,
  prototypeSnapshot,
  seedState,
  stateChangingRequests,
  type SeededState,
} from '../../helpers/fuzz-state.js';
import {
  DEEP_ARRAY,
  DEEP_OBJECT,
  Obj,
  fromValue,
  hostileRequests,
  hugeString,
  pollution,
  seededRandom,
  toJson,
  type Random,
  type Tree,
} from '../../helpers/hostile-contract-messages.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * The daemon's socket under 1,200 malformed and hostile frames from a seeded
 * PRNG (FUZZ_SEED replays a run). Each frame the socket takes gets its
 * answer: VALIDATION_ERROR with the frame's id for a command whose request is
 * wrong, UNKNOWN_COMMAND for a name that is not a command, VALIDATION_ERROR
 * with id null for a frame that is not a command at all (not JSON, not an
 * {id, name, request} object, binary). A frame over 1 MiB or text that is not
 * UTF-8 closes that socket (1009, 1007) and nothing else. Afterwards the
 * daemon still serves, a valid command works, the app's state is as it was
 * and no built-in prototype has changed.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_251_012);
const FRAMES = 1_200;
const KEY = 'f'.repeat(32);
/** the socket's frame limit (daemon.ts) */
const MAX_FRAME = 1024 * 1024;
const ANSWER_TIMEOUT_MS = 10_000;
const RUN_BUDGET_MS = 150_000;

type Outcome = { reply: WsResult } | { closed: number };

/** One socket to the daemon that answers each frame in turn (events are set aside). */
class FuzzSocket {
  private waiting: ((outcome: Outcome) => void) | undefined;
  closed: number | undefined;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as unknown;
      if (WsEventSchema.safeParse(message).success && !WsResultSchema.safeParse(message).success) return;
      this.settle({ reply: WsResultSchema.parse(message) });
    });
    ws.on('close', (code) => {
      this.closed = code;
      this.settle({ closed: code });
    });
    ws.on('error', () => undefined);
  }

  static async open(url: string): Promise<FuzzSocket> {
    const ws = new WebSocket(url, sessionProtocols(KEY));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new FuzzSocket(ws);
  }

  send(data: string | Buffer, binary: boolean, what: string): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to ${what} within ${ANSWER_TIMEOUT_MS} ms (FUZZ_SEED=${SEED})`)),
        ANSWER_TIMEOUT_MS,
      );
      this.waiting = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      this.ws.send(data, { binary });
    });
  }

  private settle(outcome: Outcome): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(outcome);
  }

  close(): void {
    this.ws.terminate();
  }
}

interface Frame {
  kind: string;
  data: string | Buffer;
  binary: boolean;
  /** the answer it must get: a reply with this id and code, or the socket closed with this code */
  expected: { id: number | null; code: string } | { close: number };
}

describe('the daemon socket under hostile frames', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let daemon: Daemon;
  let state: SeededState;
  const log = memoryLog();

  beforeAll(async () => {
    server = await startTestServer();
    data = await tempDir('media-sync-ws-fuzz-');
    engine = await Engine.open({ dataDir: data.path, settleMs: 300 });
    core = createAppCore(engine, data.path);
    await core.start();
    state = await seedState(core, server, data.path);
    daemon = await startDaemon({ core, port: 0, sessionKey: KEY, dropDir: join(data.path, 'dropped'), log });
  });

  afterAll(async () => {
    await daemon?.close();
    await core?.dispose();
    await engine?.close();
    await server?.close();
    await data?.remove();
  });

  function frames(random: Random): Frame[] {
    const contract = hostileRequests(Math.round(FRAMES * 0.75), {
      random,
      context: { accountId: state.accountId, baseUrl: server.baseUrl, dataDir: data.path },
      hugeLength: [100_000, 900_000],
      maxNameLength: 100,
    });
    const valid = stateChangingRequests(state);
    const list: Frame[] = [];
    let nextId = 1;
    for (const request of contract) {
      const id = nextId++;
      // pollution beside the envelope's fields is stripped with them; the command still reaches the core
      const envelope = new Obj([
        ['id', id],
        ['name', request.name],
        ...(random.chance(0.1) ? [['__proto__', pollution(random, 2)] as [string, Obj]] : []),
      ]);
      const text =
        request.json === undefined ? toJson(envelope) : `${toJson(envelope).slice(0, -1)},"request":${request.json}}`;
      const tooLarge = Buffer.byteLength(text) > MAX_FRAME;
      list.push({
        kind: `contract: ${request.kind}`,
        data: text,
        binary: false,
        // an envelope must carry `request` (null will do): without it the frame is not a command
        expected: tooLarge
          ? { close: 1009 }
          : request.json === undefined
            ? { id: null, code: 'VALIDATION_ERROR' }
            : { id, code: request.expected },
      });
    }
    const refused = (kind: string, data: string | Buffer, binary = false): Frame => ({
      kind,
      data,
      binary,
      expected: { id: null, code: 'VALIDATION_ERROR' },
    });
    const command = () => random.pick(valid);
    const withEnvelope = (fields: Array<[string, Tree]>) => toJson(new Obj(fields));
    const frameKinds: Array<() => Frame> = [
      // a valid command that would change the state, in an envelope with no usable id: it must not run
      () => {
        const { name, request } = command();
        const id = random.pick<Tree | undefined>(['1', -1, 1.5, 2 ** 60, true, new Obj([]), [1], undefined]);
        const fields: Array<[string, Tree]> = [
          ['name', name],
          ['request', fromValue(request)],
        ];
        if (id !== undefined) fields.unshift(['id', id]);
        return refused('envelope: id missing or not an id', withEnvelope(fields));
      },
      () => {
        const { request } = command();
        const name = random.pick<Tree | undefined>([
          42,
          '',
          'x'.repeat(101),
          ['uploads:resumeAll'],
          new Obj([]),
          null,
          undefined,
        ]);
        const fields: Array<[string, Tree]> = [
          ['id', nextId++],
          ['request', fromValue(request)],
        ];
        if (name !== undefined) fields.push(['name', name]);
        return refused('envelope: name missing or not a name', withEnvelope(fields));
      },
      // the envelope's fields only on a prototype: own fields are what count
      () => {
        const { name, request } = command();
        const inner = new Obj([
          ['id', nextId++],
          ['name', name],
          ['request', fromValue(request)],
        ]);
        const key = random.pick(['__proto__', 'constructor', 'prototype']);
        const text =
          key === 'constructor' ? withEnvelope([[key, new Obj([['prototype', inner]])]]) : withEnvelope([[key, inner]]);
        return refused('envelope: prototype-pollution keys', text);
      },
      () =>
        refused(
          'frame: JSON that is not an object',
          random.pick([
            'null',
            '42',
            '"uploads:resumeAll"',
            'true',
            '[]',
            '[{"id":1,"name":"uploads:resumeAll","request":{}}]',
          ]),
        ),
      () => refused('frame: deeply nested (10,000 levels)', toJson(random.pick([DEEP_ARRAY, DEEP_OBJECT]))),
      () =>
        refused(
          'frame: not JSON',
          random.pick([
            '',
            ' ',
            'not json',
            '{',
            '{"id":1',
            'undefined',
            'NaN',
            "{'id':1,'name':'uploads:resumeAll'}",
            '[1,2',
            '\u0000',
            '{"id":1,"name":"uploads:resumeAll","request":{}} trailing',
            '\ufeff{"id":1,"name":"uploads:resumeAll","request":{}}',
            randomText(random),
          ]),
        ),
      () => {
        const { name, request } = command();
        const payload = random.chance(0.5)
          ? Buffer.from(JSON.stringify({ id: nextId++, name, request }))
          : randomBytes(random, random.between(1, 4096));
        return refused('frame: binary', payload, true);
      },
      () => ({
        kind: 'frame: over 1 MiB (a few MB)',
        data: `{"id":${nextId++},"name":"app:openLink","request":{"link":"${hugeString(random, [1_100_000, 4_000_000])}"}}`,
        binary: false,
        expected: { close: 1009 },
      }),
      () => ({
        kind: 'frame: text that is not UTF-8',
        data: Buffer.concat([
          Buffer.from('{"id":1,"name":"'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
          Buffer.from('"}'),
        ]),
        binary: false,
        expected: { close: 1007 },
      }),
    ];
    // the frame-level kinds, the costly closing ones rarely
    const weights = [40, 30, 25, 20, 15, 40, 40, 5, 5];
    while (list.length < FRAMES) {
      let pick = random.int(weights.reduce((a, b) => a + b, 0));
      let index = 0;
      while (pick >= weights[index]!) pick -= weights[index++]!;
      list.splice(random.int(list.length + 1), 0, frameKinds[index]!());
    }
    return list;
  }

  it(`answers every one of ${FRAMES} hostile frames, stays up, and changes nothing (FUZZ_SEED=${SEED})`, async () => {
    const started = Date.now();
    const prototypes = prototypeSnapshot();
    const before = await appState(core);
    const random = seededRandom(SEED);
    const list = frames(random);
    const wsUrl = `ws://127.0.0.1:${daemon.port}/ipc`;
    let socket = await FuzzSocket.open(wsUrl);
    const tally: Record<string, number> = {};
    const mismatches: string[] = [];
    for (const [index, frame] of list.entries()) {
      expect(Date.now() - started, `the run's time budget (FUZZ_SEED=${SEED})`).toBeLessThan(RUN_BUDGET_MS);
      tally[frame.kind] = (tally[frame.kind] ?? 0) + 1;
      const what = `frame #${index} (${frame.kind})`;
      const outcome = await socket.send(frame.data, frame.binary, what);
      const got =
        'closed' in outcome
          ? { close: outcome.closed }
          : {
              id: outcome.reply.id,
              code: outcome.reply.result.ok ? 'OK' : outcome.reply.result.error.code,
            };
      if (JSON.stringify(got) !== JSON.stringify(frame.expected)) {
        mismatches.push(`${what}: expected ${JSON.stringify(frame.expected)}, got ${JSON.stringify(got)}`);
      }
      if ('closed' in outcome) socket = await FuzzSocket.open(wsUrl);
    }
    expect(mismatches, `FUZZ_SEED=${SEED}`).toEqual([]);

    // the daemon is up: its page, and a valid command on the same socket
    expect((await rawRequest(daemon.url)).status).toBe(200);
    const valid = await socket.send(JSON.stringify({ id: 1, name: 'app:info', request: {} }), false, 'a valid command');
    expect(valid).toMatchObject({ reply: { id: 1, result: { ok: true, value: { shell: 'headless' } } } });
    socket.close();

    expect(await appState(core)).toEqual(before);
    expectPrototypesClean(prototypes);
    // frames it could not read closed their socket and were written down; nothing failed unexpectedly
    expect(log.entries.filter((entry) => entry.level === 'error')).toEqual([]);
    expect(log.entries.some((entry) => entry.message.includes('Max payload size exceeded'))).toBe(true);

    expect(list.length).toBeGreaterThanOrEqual(1_000);
    for (const kind of [
      'contract: unknown command',
      'contract: request not an object',
      'contract: field of the wrong type',
      'contract: required field missing',
      'contract: deeply nested (10,000 levels)',
      'contract: huge string',
      'contract: prototype-pollution keys',
      'envelope: id missing or not an id',
      'envelope: prototype-pollution keys',
      'frame: not JSON',
      'frame: binary',
      'frame: deeply nested (10,000 levels)',
      'frame: over 1 MiB (a few MB)',
      'frame: text that is not UTF-8',
    ]) {
      expect(tally[kind] ?? 0, kind).toBeGreaterThanOrEqual(3);
    }
  });
});

function randomText(random: Random): string {
  const characters = '{}[]":,\\ abc123\u0000\n\té😀';
  return Array.from({ length: random.between(1, 64) }, () => random.pick([...characters])).join('');
}

function randomBytes(random: Random, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => random.int(256)));
}
