import type { IpcMainInvokeEvent } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { commandChannel, registerContractHandlers } from '../../../src-main/electron/ipc-bridge.js';
import { IPC_COMMANDS, type IpcCommandName } from '../../../src-shared/ipc/ipc-contract.js';
import { createAppCore } from '../../helpers/app-core-fixture.js';
import { requestForEveryCommand } from '../../helpers/contract-requests.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import {
  appState,
  expectPrototypesClean,
  prototypeSnapshot,
  seedState,
  stateChangingRequests,
  type SeededState,
} from '../../helpers/fuzz-state.js';
import { hostileRequests, seededRandom, type Random } from '../../helpers/hostile-contract-messages.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * Electron's ipc handlers of the contract (`registerContractHandlers`) under
 * 1,200 malformed and hostile calls from a seeded PRNG (FUZZ_SEED replays a
 * run), through a minimal ipcMain that answers an unregistered channel as
 * Electron does. Values reach the handlers as Electron's structured clone
 * delivers them, so they may also be Maps, Dates, typed arrays, BigInts or
 * NaN; a 10,000-deep value, which V8's serializer refuses to send at all, is
 * handed over as it is. Every call is answered (VALIDATION_ERROR, FORBIDDEN
 * from a frame that may not call), none throws, the app's state and the
 * built-in prototypes are as they were, and a valid command still works.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_251_012);
const CALLS = 1_200;
const ANSWER_TIMEOUT_MS = 10_000;
const RUN_BUDGET_MS = 150_000;

type Handler = (event: IpcMainInvokeEvent, raw: unknown) => Promise<unknown>;
type Frame = { url: string; parent: unknown } | null;

const OWN_FRAME: Frame = { url: 'file:///opt/media-sync/resources/app.asar/dist/renderer/index.html', parent: null };
const FOREIGN_FRAMES: Frame[] = [
  { url: 'https://evil.example/', parent: null },
  { url: 'http://127.0.0.1:8790/', parent: null },
  { url: 'data:text/html,<script>1</script>', parent: null },
  { url: 'about:blank', parent: null },
  { url: '', parent: null },
  // the app's own page inside a frame of another
  { url: OWN_FRAME!.url, parent: { url: 'https://evil.example/' } },
  // a frame already gone
  null,
];

interface Call {
  kind: string;
  channel: string;
  frame: Frame;
  request: unknown;
  /** the error code it must be answered with, or `no handler` for a channel nothing answers */
  expected: string;
}

/** A minimal ipcMain: one handler per channel, and Electron's answer for a channel without one. */
function ipcMainStandIn() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: (channel: string, handler: Handler) => void handlers.set(channel, handler),
    removeHandler: (channel: string) => void handlers.delete(channel),
    async invoke(channel: string, frame: Frame, request: unknown): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ senderFrame: frame } as unknown as IpcMainInvokeEvent, request);
    },
  };
}

/** What Electron hands the main process: a structured clone, or, past what V8 serializes, the value itself. */
function delivered(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

describe('the Electron ipc handlers under hostile calls', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let state: SeededState;
  let ipcMain: ReturnType<typeof ipcMainStandIn>;
  let registration: { dispose(): void };
  const sent: unknown[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    data = await tempDir('media-sync-ipc-fuzz-');
    engine = await Engine.open({ dataDir: data.path, settleMs: 300 });
    core = createAppCore(engine, data.path, { info: { version: '0.1.0', shell: 'electron', dataDir: data.path } });
    await core.start();
    state = await seedState(core, server, data.path);
    ipcMain = ipcMainStandIn();
    registration = registerContractHandlers(
      ipcMain as never,
      core,
      // the desktop app's own rule (desktop-app.ts)
      (url) => url.startsWith('file://'),
    );
    // what a shown window's page would be told (forwardEvents)
    core.onDidEmit((event) => sent.push(event));
  });

  afterAll(async () => {
    registration?.dispose();
    await core?.dispose();
    await engine?.close();
    await server?.close();
    await data?.remove();
  });

  function calls(random: Random): Call[] {
    const context = { accountId: state.accountId, baseUrl: server.baseUrl, dataDir: data.path };
    const list: Call[] = hostileRequests(Math.round(CALLS * 0.8), {
      random,
      context,
      hugeLength: [1_000_000, 4_000_000],
      maxNameLength: 200,
    }).map((request) => ({
      kind: request.kind,
      channel: commandChannel(request.name),
      frame: OWN_FRAME,
      request: request.json === undefined ? undefined : JSON.parse(request.json),
      expected: request.expected === 'UNKNOWN_COMMAND' ? 'no handler' : 'VALIDATION_ERROR',
    }));
    const names = Object.keys(IPC_COMMANDS) as IpcCommandName[];
    const examples = requestForEveryCommand(context) as Record<IpcCommandName, unknown>;
    const cloneOnly = (): unknown =>
      random.pick<() => unknown>([
        () => new Map(Object.entries((examples[random.pick(names)] as object) ?? {})),
        () => new Set(['accountId']),
        () => new Date(),
        () => /uploads:resumeAll/g,
        () => new Uint8Array(Array.from({ length: random.between(1, 1024) }, () => random.int(256))),
        () => new ArrayBuffer(random.between(1, 1024)),
        () => new Float64Array([NaN, Infinity]),
        () => 10n ** 30n,
        () => NaN,
        () => Infinity,
        () => -0,
        () => new Error('not a request'),
        // an array with holes, which the structured clone keeps
        () => Object.assign(new Array<unknown>(3), { 2: 1 }),
      ])();
    const frameKinds: Array<() => Call> = [
      // values only the structured clone carries, as the request of any command
      () => ({
        kind: 'structured-clone value (Map, Date, typed array, BigInt, NaN…)',
        channel: commandChannel(random.pick(names)),
        frame: OWN_FRAME,
        request: cloneOnly(),
        expected: 'VALIDATION_ERROR',
      }),
      // ... or in a field that takes a string, a number or a list
      () => {
        const name = random.pick(names.filter((candidate) => Object.keys(examples[candidate] as object).length > 0));
        const example = { ...(examples[name] as Record<string, unknown>) };
        const field = random.pick(
          Object.keys(example).filter((key) => typeof example[key] !== 'object' || Array.isArray(example[key])),
        );
        if (field === undefined) return frameKinds[0]!();
        example[field] = random.pick<unknown>([
          10n,
          NaN,
          Infinity,
          new Date(),
          new Uint8Array(8),
          new Map([[field, 1]]),
        ]);
        return {
          kind: 'structured-clone value in a field',
          channel: commandChannel(name),
          frame: OWN_FRAME,
          request: example,
          expected: 'VALIDATION_ERROR',
        };
      },
      // valid commands that would change the state, from a frame that may not call
      () => {
        const command = random.chance(0.7)
          ? random.pick(stateChangingRequests(state))
          : { name: random.pick(names), request: examples[random.pick(names)] };
        return {
          kind: 'valid command from a frame that may not call',
          channel: commandChannel(command.name),
          frame: random.pick(FOREIGN_FRAMES),
          request: command.request,
          expected: 'FORBIDDEN',
        };
      },
    ];
    while (list.length < CALLS) list.splice(random.int(list.length + 1), 0, random.pick(frameKinds)());
    return list;
  }

  it(`answers every one of ${CALLS} hostile calls, never throws, and changes nothing (FUZZ_SEED=${SEED})`, async () => {
    const started = Date.now();
    const prototypes = prototypeSnapshot();
    const before = await appState(core);
    const list = calls(seededRandom(SEED));
    const tally: Record<string, number> = {};
    const mismatches: string[] = [];
    for (const [index, call] of list.entries()) {
      expect(Date.now() - started, `the run's time budget (FUZZ_SEED=${SEED})`).toBeLessThan(RUN_BUDGET_MS);
      tally[call.kind] = (tally[call.kind] ?? 0) + 1;
      const what = `call #${index} (${call.kind}) on ${JSON.stringify(call.channel)}`;
      let timer: NodeJS.Timeout | undefined;
      const got = await Promise.race([
        ipcMain.invoke(call.channel, call.frame, delivered(call.request)).then(
          (answer) => {
            const result = answer as { ok: boolean; error?: { code: string } };
            return result.ok ? 'OK' : result.error!.code;
          },
          (error: Error) =>
            error.message.startsWith('No handler registered') ? 'no handler' : `threw ${error.message}`,
        ),
        new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve(`no answer within ${ANSWER_TIMEOUT_MS} ms`), ANSWER_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (got !== call.expected) mismatches.push(`${what}: expected ${call.expected}, got ${got}`);
    }
    expect(mismatches, `FUZZ_SEED=${SEED}`).toEqual([]);

    expect(await ipcMain.invoke(commandChannel('app:info'), OWN_FRAME, {})).toMatchObject({
      ok: true,
      value: { shell: 'electron' },
    });
    expect(await appState(core)).toEqual(before);
    expectPrototypesClean(prototypes);
    // nothing happened that the window would have been told of
    expect(sent).toEqual([]);

    expect(list.length).toBeGreaterThanOrEqual(1_000);
    for (const kind of [
      'unknown command',
      'request not an object',
      'field of the wrong type',
      'required field missing',
      'deeply nested (10,000 levels)',
      'huge string',
      'prototype-pollution keys',
      'structured-clone value (Map, Date, typed array, BigInt, NaN…)',
      'structured-clone value in a field',
      'valid command from a frame that may not call',
    ]) {
      expect(tally[kind] ?? 0, kind).toBeGreaterThanOrEqual(20);
    }
  });
});
