import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CHECK_OUTGOING, outgoing } from '../../../src-main/core/outgoing-check.js';

const ViewSchema = z.object({ id: z.int(), name: z.string(), hidden: z.boolean().default(false) });

describe('what the core sends', () => {
  it('is checked in tests: every answer and event of a test run goes through the contract', () => {
    expect(CHECK_OUTGOING).toBe(true);
  });

  it('passes as it is when the contract takes it as it is', () => {
    const view = { id: 1, name: 'a.mp4', hidden: true };
    expect(outgoing(ViewSchema, view, 'the answer to x', true)).toEqual(view);
  });

  it('is an error, naming what, when the contract refuses it or would change it', () => {
    expect(() => outgoing(ViewSchema, { id: 'one', name: 'a.mp4', hidden: false }, 'the event y', true)).toThrow(
      /the event y that its contract refuses/,
    );
    // a field the contract does not have (a password, say) would be dropped: the core must not build it
    expect(() => outgoing(ViewSchema, { id: 1, name: 'a', hidden: false, password: 's' }, 'x', true)).toThrow(
      /would change/,
    );
    // a default the contract would fill: production would send without it
    expect(() => outgoing(ViewSchema, { id: 1, name: 'a' }, 'x', true)).toThrow(/would change/);
  });

  it('is sent as it is, unchecked, outside tests', () => {
    const odd = { id: 'one' };
    expect(outgoing(ViewSchema, odd, 'x', false)).toBe(odd);
  });
});
