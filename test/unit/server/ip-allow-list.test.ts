import { describe, expect, it } from 'vitest';
import { isAddressAllowed, parseAllowEntry } from '../../../src-server/auth/ip-allow-list.js';

describe('isAddressAllowed', () => {
  it.each([
    ['203.0.113.7', ['203.0.113.0/24'], true],
    ['203.0.114.7', ['203.0.113.0/24'], false],
    ['203.0.113.7', ['203.0.113.7'], true],
    ['::ffff:203.0.113.7', ['203.0.113.0/24'], true],
    ['2001:db8::42', ['2001:db8::/32'], true],
    ['2001:db9::42', ['2001:db8::/32'], false],
    ['2001:db8::42', ['203.0.113.0/24'], false],
    ['127.0.0.1', ['::ffff:127.0.0.0/104'], true],
    ['127.0.0.1', [], true],
    ['not-an-ip', ['0.0.0.0/0'], false],
  ])('%s against %o → %s', (address, entries, allowed) => {
    expect(isAddressAllowed(address, entries)).toBe(allowed);
  });

  it('refuses nonsense entries when they are written', () => {
    expect(() => parseAllowEntry('10.0.0.0/33')).toThrow();
    expect(() => parseAllowEntry('office')).toThrow();
  });
});
