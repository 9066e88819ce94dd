import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  checkUrlShape,
  resolveTarget,
  TargetRefused,
  type TargetPolicy,
} from '../../../src-server/remote/target-guard.js';

const strict = { allowPrivate: false, allowedTargets: new Set<string>() };
const relaxed = { allowPrivate: true, allowedTargets: new Set<string>() };

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private network'],
    ['172.16.0.1', 'private network'],
    ['192.168.0.1', 'private network'],
    ['fd12:3456::1', 'unique local'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private network'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['2002:7f00:1::1', '6to4'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(addressRefusal(address, 80, strict)).toContain(kind);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946'])(
    'allows the public address %s',
    (address) => {
      expect(addressRefusal(address, 443, strict)).toBeNull();
    },
  );

  it('lets loopback and private through only when private targets are allowed, never metadata', () => {
    expect(addressRefusal('127.0.0.1', 80, relaxed)).toBeNull();
    expect(addressRefusal('10.0.0.1', 80, relaxed)).toBeNull();
    expect(addressRefusal('169.254.169.254', 80, relaxed)).toContain('metadata');
  });

  it('lets one exact ip:port through while the guard stays on for the rest', () => {
    const policy = { allowPrivate: false, allowedTargets: new Set(['127.0.0.1:8080']) };
    expect(addressRefusal('127.0.0.1', 8080, policy)).toBeNull();
    expect(addressRefusal('127.0.0.1', 8081, policy)).toContain('loopback');
  });
});

describe('checkUrlShape', () => {
  it.each([
    ['ftp://example.com/a.mp4', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['http://user:pw@example.com/a.mp4', 'user name'],
    ['http://localhost/a.mp4', 'local host name'],
    ['http://LOCALHOST./a.mp4', 'local host name'],
    ['http://video.localhost/a.mp4', 'local host name'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'local host name'],
  ])('refuses %s', (url, words) => {
    expect(() => checkUrlShape(new URL(url))).toThrow(words);
  });
});

describe('resolveTarget', () => {
  const policy = (answers: Record<string, string[]>): TargetPolicy & { asked: string[] } => {
    const asked: string[] = [];
    return {
      ...strict,
      asked,
      resolve: async (host) => {
        asked.push(host);
        const addresses = answers[host];
        if (!addresses) throw new Error('ENOTFOUND');
        return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
    };
  };

  it('refuses a name when any of its addresses is private', async () => {
    const p = policy({ 'mixed.test': ['93.184.216.34', '10.0.0.1'] });
    await expect(resolveTarget(new URL('http://mixed.test/v.mp4'), p)).rejects.toThrow(
      '10.0.0.1, a private network address',
    );
  });

  it('checks literal IPs itself without asking DNS', async () => {
    const p = policy({});
    await expect(resolveTarget(new URL('http://2130706433/v.mp4'), p)).rejects.toThrow(
      '127.0.0.1 is a loopback address',
    );
    expect(p.asked).toEqual([]);
  });

  it('returns the approved addresses of a public name', async () => {
    const p = policy({ 'cdn.test': ['93.184.216.34'] });
    await expect(resolveTarget(new URL('https://cdn.test/v.mp4'), p)).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
  });

  it('marks an unresolvable name as unresolved, not as refused', async () => {
    const error = await resolveTarget(new URL('http://nowhere.test/v.mp4'), policy({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetRefused);
    expect((error as TargetRefused).unresolved).toBe(true);
  });
});
