import { describe, expect, it } from 'vitest';
import { explainError } from '../../../../src-renderer/text/explain-error.js';
import { filesSearchHash, routeFromHash, viewFromHash } from '../../../../src-renderer/routes.js';

describe('errors as a person reads them', () => {
  it('says what to do for a refused token, and which feature a missing permission stops', () => {
    expect(explainError({ code: 'UNAUTHENTICATED', message: 'Invalid token.', requestId: 'r1' }).message).toBe(
      'The server did not accept this token.',
    );
    expect(explainError({ code: 'TOKEN_DISABLED', message: 'x', requestId: null }).hint).toMatch(/new token/);
    expect(explainError({ code: 'TOKEN_EXPIRED', message: 'x', requestId: null }).message).toBe(
      'This token has expired.',
    );
    const denied = explainError({
      code: 'TOKEN_ABILITY_DENIED',
      message: 'This token does not have the remote:write permission.',
      requestId: null,
    });
    expect(denied.message).toBe('This token does not have the remote:write permission.');
    expect(denied.hint).toContain('import videos from links');
    expect(explainError({ code: 'IP_NOT_ALLOWED', message: 'Not from here.', requestId: null }).hint).toMatch(
      /trusted addresses/,
    );
  });

  it('keeps the server message when nothing more useful can be said', () => {
    expect(explainError({ code: 'VALIDATION_ERROR', message: 'The name is too long.', requestId: null })).toEqual({
      message: 'The name is too long.',
      hint: null,
    });
  });
});

describe('routes', () => {
  it('opens the named view, and the queue for anything else', () => {
    expect(viewFromHash('#/files')).toBe('files');
    expect(viewFromHash('#settings')).toBe('settings');
    expect(viewFromHash('#/nope')).toBe('queue');
    expect(viewFromHash('')).toBe('queue');
    expect(viewFromHash('#/folders')).toBe('folders');
  });

  it('opens a Settings section by its address, the first for none or an unknown one, and Files with a search', () => {
    expect(routeFromHash('#/settings/uploads')).toEqual({ view: 'settings', section: 'uploads', search: null });
    expect(routeFromHash('#settings/support').section).toBe('support');
    expect(routeFromHash('#/settings').section).toBe('general');
    expect(routeFromHash('#/settings/nope').section).toBe('general');
    expect(routeFromHash(filesSearchHash('a b&c.mp4'))).toMatchObject({ view: 'files', search: 'a b&c.mp4' });
  });
});
