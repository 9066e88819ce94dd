import * as z from 'zod';
import { IPC_COMMANDS, type IpcCommandName } from '../../src-shared/ipc/ipc-contract.js';
import { requestForEveryCommand } from './contract-requests.js';

/**
 * Malformed and hostile contract requests for the fuzz tests of both
 * transports (the daemon's WebSocket, Electron's ipc handlers). Each one is
 * invalid by construction, so the core must answer VALIDATION_ERROR (or
 * UNKNOWN_COMMAND for a name that is not a command) and change nothing.
 * Requests are built as JSON text, never with JSON.stringify: it cannot write
 * an own `__proto__` key from an object literal, nor nest 10,000 levels.
 */

/** mulberry32: small and seeded, so a failing run replays from the seed it names. */
export interface Random {
  next(): number;
  int(below: number): number;
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    pick: (items) => items[int(items.length)]!,
    chance: (probability) => next() < probability,
  };
}

export const DEEP_LEVELS = 10_000;
const DEEP_ARRAY_JSON = '['.repeat(DEEP_LEVELS) + ']'.repeat(DEEP_LEVELS);
const DEEP_OBJECT_JSON = '{"a":'.repeat(DEEP_LEVELS) + '0' + '}'.repeat(DEEP_LEVELS);

/** A JSON value as a tree whose objects keep their keys as given (`__proto__` included) and whose leaves may be raw JSON. */
export type Tree = null | boolean | number | string | Raw | Obj | Tree[];
export class Raw {
  constructor(readonly json: string) {}
}
export class Obj {
  constructor(readonly entries: Array<[string, Tree]>) {}
}

export const DEEP_ARRAY = new Raw(DEEP_ARRAY_JSON);
export const DEEP_OBJECT = new Raw(DEEP_OBJECT_JSON);

export function toJson(tree: Tree): string {
  if (tree instanceof Raw) return tree.json;
  if (tree instanceof Obj)
    return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${toJson(value)}`).join(',')}}`;
  if (Array.isArray(tree)) return `[${tree.map(toJson).join(',')}]`;
  return JSON.stringify(tree);
}

/** A plain JSON value as a Tree. */
export function fromValue(value: unknown): Tree {
  if (Array.isArray(value)) return value.map(fromValue);
  if (value !== null && typeof value === 'object') {
    return new Obj(Object.entries(value).map(([key, inner]) => [key, fromValue(inner)]));
  }
  return value as Tree;
}

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{...}},"prototype":{...}}` under `depth - 1` more such keys. */
export function pollution(random: Random, depth: number): Obj {
  const marker = () => new Obj([['polluted', 'yes']]);
  let tree = new Obj([
    ['__proto__', marker()],
    ['constructor', new Obj([['prototype', marker()]])],
    ['prototype', marker()],
  ]);
  for (let level = 1; level < depth; level++) tree = new Obj([[random.pick([...POLLUTION_KEYS, 'a']), tree]]);
  return tree;
}

export function hugeString(random: Random, [min, max]: readonly [number, number]): string {
  const length = random.between(min, max);
  // mostly one byte per character, so the caller's size bounds hold for the bytes of a frame too
  return random.chance(0.2) ? 'é'.repeat(Math.floor(length / 2)) : 'A'.repeat(length);
}

export type HostileKind =
  | 'unknown command'
  | 'request not an object'
  | 'field of the wrong type'
  | 'required field missing'
  | 'deeply nested (10,000 levels)'
  | 'huge string'
  | 'prototype-pollution keys';

export interface HostileRequest {
  kind: HostileKind;
  name: string;
  /** the request as JSON text; undefined for a message that carries none */
  json: string | undefined;
  expected: 'VALIDATION_ERROR' | 'UNKNOWN_COMMAND';
  /** prototype-pollution keys somewhere in it, whatever its kind */
  polluted: boolean;
}

export interface HostileOptions {
  random: Random;
  context: { accountId: string; baseUrl: string; dataDir: string };
  /** the length of the huge strings, in characters */
  hugeLength: readonly [number, number];
  /** the longest command name the transport lets through to the core (the socket's envelope takes 100) */
  maxNameLength: number;
}

const UNKNOWN_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
  'account:List',
  'ACCOUNT:LIST',
  ' account:list',
  'account:list ',
  'account:list\u0000',
  'ipc:account:list',
  'account',
  ':',
  'uploads:pauseAll\n',
  'settings:update;',
  '../settings:update',
  'files:list%00',
  'settings:__proto__',
  '😀:😀',
];
const NAME_ALPHABET = 'abcdefghijklmnopqrstuvwxyz:_-./\\%$ 0123456789éß😀\u0000\u202e';

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';
const kindOf = (tree: Tree): Kind =>
  tree === null
    ? 'null'
    : Array.isArray(tree)
      ? 'array'
      : tree instanceof Obj
        ? 'object'
        : (typeof tree as 'string' | 'number' | 'boolean');

/** Values a field of each kind can never take (never null or undefined: those may mean "not given"). */
function wrongValue(random: Random, kind: Kind, options: HostileOptions): Tree {
  const poisoned = () => pollution(random, random.between(1, 5));
  const huge = () => hugeString(random, options.hugeLength);
  const choices: Record<Kind, Array<() => Tree>> = {
    string: [() => 42, () => -1, () => 0, () => true, () => false, () => [], () => new Obj([]), () => ['x'], poisoned],
    number: [
      () => '2',
      () => '',
      () => '1e3',
      () => -1,
      () => 1.5,
      () => 1e21,
      () => true,
      () => [],
      () => [2],
      poisoned,
      huge,
    ],
    boolean: [() => 'true', () => 1, () => 0, () => [], () => new Obj([]), huge],
    array: [
      () => 'x',
      () => 42,
      () => true,
      () => new Obj([]),
      () => [],
      () => [42],
      () => [[]],
      () => [null],
      () => [poisoned()],
      huge,
    ],
    // not an object of another kind: a nested schema that is not strict would take that as {}
    object: [() => 'x', () => 42, () => true, () => [], () => [new Obj([])], huge],
    // a null field is a nullable something (an id, a name, a flag): only a nested array is wrong for any of them
    null: [() => [[true]], () => [[42]]],
  };
  return random.pick(choices[kind])();
}

/** Every place in an example request a value can be swapped: its fields, one level into objects, arrays' first item. */
function fieldPaths(tree: Tree, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (!(tree instanceof Obj)) return [];
  const paths: Array<Array<string | number>> = [];
  for (const [key, value] of tree.entries) {
    const path = [...prefix, key];
    paths.push(path);
    if (prefix.length === 0) {
      paths.push(...fieldPaths(value, path));
      if (Array.isArray(value) && value.length > 0) paths.push([...path, 0]);
    }
  }
  return paths;
}

function valueAt(tree: Tree, path: Array<string | number>): Tree {
  let node = tree;
  for (const step of path) {
    node = typeof step === 'number' ? (node as Tree[])[step]! : (node as Obj).entries.find(([key]) => key === step)![1];
  }
  return node;
}

function replaceAt(tree: Tree, path: Array<string | number>, value: Tree): Tree {
  if (path.length === 0) return value;
  const [step, ...rest] = path;
  if (typeof step === 'number')
    return (tree as Tree[]).map((item, index) => (index === step ? replaceAt(item, rest, value) : item));
  return new Obj(
    (tree as Obj).entries.map(([key, inner]) => [key, key === step ? replaceAt(inner, rest, value) : inner]),
  );
}

/** The top-level fields of a command's request that must be given. */
function requiredFields(name: IpcCommandName): string[] {
  const schema = IPC_COMMANDS[name].request;
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key]) => key);
}

/** Decorations that do not change whether a request is valid: pollution keys at several depths, huge or deep unknown fields. */
function decorate(random: Random, request: Obj, options: HostileOptions, extra: { huge: boolean; deep: boolean }): Obj {
  const entries: Array<[string, Tree]> = request.entries.map(([key, value]) => [
    key,
    value instanceof Obj && random.chance(0.5)
      ? new Obj([...value.entries, ['__proto__', pollution(random, 1)]])
      : value,
  ]);
  for (const key of POLLUTION_KEYS)
    if (random.chance(0.7)) entries.push([key, pollution(random, random.between(1, 6))]);
  if (extra.huge) entries.push(['x-huge', hugeString(random, options.hugeLength)]);
  if (extra.deep) entries.push(['x-deep', random.pick([DEEP_ARRAY, DEEP_OBJECT])]);
  return new Obj(entries);
}

/** `count` hostile requests, in a fixed order for a given seed. */
export function hostileRequests(count: number, options: HostileOptions): HostileRequest[] {
  const { random } = options;
  const examples = requestForEveryCommand(options.context) as Record<IpcCommandName, unknown>;
  const names = Object.keys(IPC_COMMANDS) as IpcCommandName[];
  const kinds: HostileKind[] = [
    'unknown command',
    'request not an object',
    'field of the wrong type',
    'field of the wrong type',
    'field of the wrong type',
    'required field missing',
    'deeply nested (10,000 levels)',
    'huge string',
    'prototype-pollution keys',
  ];
  const result: HostileRequest[] = [];
  // a command without fields can be malformed in one way only, a request that is not an object: the other kinds take the rest
  const withFields = names.filter((name) => fieldPaths(fromValue(examples[name])).length > 0);
  const withRequired = names.filter((name) => requiredFields(name).length > 0);
  for (let index = 0; index < count; index++) {
    const kind = random.pick(kinds);
    const name =
      kind === 'request not an object' || kind === 'unknown command'
        ? random.pick(names)
        : random.pick(kind === 'required field missing' ? withRequired : withFields);
    const example = fromValue(examples[name]);
    const paths = fieldPaths(example);
    const required = requiredFields(name);
    let request: Tree | undefined;
    let polluted = false;
    const withDecorations = (tree: Obj, extra = { huge: false, deep: false }) => {
      polluted = true;
      return decorate(random, tree, options, extra);
    };
    switch (kind) {
      case 'unknown command': {
        request = random.pick<() => Tree | undefined>([
          () => fromValue(examples[random.pick(names)]),
          () => undefined,
          () => withDecorations(new Obj([])),
          () => DEEP_ARRAY,
        ])();
        result.push({
          kind,
          name: unknownName(random, options.maxNameLength),
          json: json(request),
          expected: 'UNKNOWN_COMMAND',
          polluted,
        });
        continue;
      }
      case 'request not an object':
        request = random.pick<() => Tree>([
          () => 0,
          () => -1,
          () => 1.5,
          () => '',
          () => 'x',
          () => '{}',
          () => name,
          () => true,
          () => false,
          () => [],
          () => [example],
          () => [new Obj([])],
          () => {
            polluted = true;
            return [pollution(random, random.between(1, 4))];
          },
        ])();
        break;
      case 'field of the wrong type': {
        const path = random.pick(paths);
        const replaced = replaceAt(example, path, wrongValue(random, kindOf(valueAt(example, path)), options));
        request = random.chance(0.5) ? withDecorations(replaced as Obj) : replaced;
        break;
      }
      case 'required field missing': {
        if (random.chance(0.2)) {
          request = undefined;
          break;
        }
        const missing = random.pick(required);
        const without = new Obj((example as Obj).entries.filter(([key]) => key !== missing));
        request = random.chance(0.5) ? withDecorations(without) : without;
        break;
      }
      case 'deeply nested (10,000 levels)': {
        if (random.chance(0.3)) {
          request = DEEP_ARRAY;
          break;
        }
        const path = random.pick(paths);
        const target = kindOf(valueAt(example, path));
        // a deep object where an object belongs would only be stripped of its unknown key
        const deep = target === 'object' || target === 'array' ? DEEP_ARRAY : random.pick([DEEP_ARRAY, DEEP_OBJECT]);
        const replaced = replaceAt(example, path, target === 'array' && random.chance(0.5) ? [deep] : deep);
        request = random.chance(0.3) ? withDecorations(replaced as Obj, { huge: false, deep: true }) : replaced;
        break;
      }
      case 'huge string': {
        if (random.chance(0.3)) {
          request = hugeString(random, options.hugeLength);
          break;
        }
        // a huge string where no string belongs, or beside a field of the wrong type
        const path = random.pick(paths);
        const target = kindOf(valueAt(example, path));
        const replaced =
          target === 'string'
            ? replaceAt(example, path, wrongValue(random, 'string', options))
            : replaceAt(example, path, hugeString(random, options.hugeLength));
        request = target === 'string' ? withDecorations(replaced as Obj, { huge: true, deep: false }) : replaced;
        break;
      }
      case 'prototype-pollution keys': {
        const path = random.pick(paths);
        const target = kindOf(valueAt(example, path));
        // the pollution itself where a value of another kind belongs, and more of it all around
        const replaced = replaceAt(
          example,
          path,
          target === 'object' ? [pollution(random, random.between(1, 6))] : pollution(random, random.between(1, 6)),
        );
        request = withDecorations(replaced as Obj);
        break;
      }
    }
    result.push({ kind, name, json: json(request), expected: 'VALIDATION_ERROR', polluted });
  }
  return result;
}

function json(tree: Tree | undefined): string | undefined {
  return tree === undefined ? undefined : toJson(tree);
}

function unknownName(random: Random, maxLength: number): string {
  if (random.chance(0.6)) return random.pick(UNKNOWN_NAMES);
  const characters = [...NAME_ALPHABET];
  let name = '';
  const length = random.between(1, maxLength);
  while (name.length < length) {
    const next = random.pick(characters);
    if (name.length + next.length > length) break;
    name += next;
  }
  return name.length > 0 && !Object.hasOwn(IPC_COMMANDS, name) ? name : 'no:such-command';
}
