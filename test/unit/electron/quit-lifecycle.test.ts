import { describe, expect, it } from 'vitest';
import {
  INITIAL_QUIT_STATE,
  quitTransition,
  windowMayClose,
  type QuitEvent,
  type QuitState,
} from '../../../src-main/electron/quit-lifecycle.js';

/** Runs events from the start and returns every step's state and effects. */
function run(...events: QuitEvent['type'][]) {
  let state: QuitState = INITIAL_QUIT_STATE;
  return events.map((type) => {
    const step = quitTransition(state, { type } as QuitEvent);
    state = step.state;
    return { state: state.kind, effects: step.effects, windowMayClose: windowMayClose(state) };
  });
}

describe('the quit sequence', () => {
  it('prevents the first before-quit, stops, then quits for real with the windows allowed to close', () => {
    expect(run('ready', 'quit-requested', 'stopped', 'quit-requested')).toEqual([
      { state: 'running', effects: [], windowMayClose: false },
      { state: 'stopping', effects: ['prevent-quit', 'begin-stop'], windowMayClose: false },
      { state: 'stopped', effects: ['quit'], windowMayClose: true },
      // the second before-quit, from that quit: nothing stands in its way
      { state: 'stopped', effects: [], windowMayClose: true },
    ]);
  });

  it('starts one stop only when quit is asked again meanwhile (Cmd+Q twice, SIGTERM during a quit)', () => {
    expect(run('ready', 'quit-requested', 'quit-requested', 'stopped').map((step) => step.effects)).toEqual([
      [],
      ['prevent-quit', 'begin-stop'],
      ['prevent-quit'],
      ['quit'],
    ]);
  });

  it('stops without quitting for an update installer, and quits if the person quits meanwhile', () => {
    expect(run('ready', 'stop-requested', 'stopped').map((step) => [step.state, step.effects])).toEqual([
      ['running', []],
      ['stopping', ['begin-stop']],
      ['stopped', []],
    ]);
    expect(run('ready', 'stop-requested', 'quit-requested', 'stopped').at(-1)!.effects).toEqual(['quit']);
  });

  it('stops a quit that arrives while starting, and a start that finishes meanwhile changes nothing', () => {
    expect(run('quit-requested', 'ready', 'stopped').map((step) => [step.state, step.effects])).toEqual([
      ['stopping', ['prevent-quit', 'begin-stop']],
      ['stopping', []],
      ['stopped', ['quit']],
    ]);
  });

  it('keeps the window open only for hiding while the app runs', () => {
    expect(windowMayClose({ kind: 'running' })).toBe(false);
    expect(windowMayClose({ kind: 'stopping', quitAfter: true })).toBe(false);
  });
});
