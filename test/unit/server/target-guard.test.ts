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
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::ffff:0.0.0.0', 'unspecified'],
    // IPv6 forms that carry an IPv4 address
    ['::7f00:1', 'IPv4-compatible'],
    ['0:0:0:0:0:0:127.0.0.1', 'IPv4-compatible'],
    // with a dotted tail, as getaddrinfo prints an AAAA answer in ::/96 (ipaddr.js alone reads it as IPv4-mapped)
    ['::10.0.0.1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['::169.254.169.254', 'IPv4-compatible'],
    ['::2', 'IPv4-compatible'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['::ffff:0:c0a8:1', 'IPv4-translated'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['64:ff9b:1::7f00:1', 'NAT64'],
    ['2002:c0a8:101::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo'],
    ['2001::1', 'Teredo'],
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

  it('names the IPv4 address an IPv6 form carries', () => {
    expect(addressRefusal('::7f00:1', 80, strict)).toBe(
      'an IPv4-compatible IPv6 address (deprecated) carrying 127.0.0.1',
    );
    expect(addressRefusal('64:ff9b::a9fe:a9fe', 80, strict)).toBe('a NAT64 address carrying 169.254.169.254');
    expect(addressRefusal('2002:c0a8:101::1', 80, strict)).toBe('a 6to4 tunnel address carrying 192.168.1.1');
    // Teredo keeps the client's address inverted
    expect(addressRefusal('2001:0:4136:e378:8000:63bf:3fff:fdd2', 80, strict)).toBe(
      'a Teredo tunnel address carrying 192.0.2.45',
    );
  });

  it('refuses IPv6 forms of an IPv4 address whatever they carry, even when private targets are allowed', () => {
    for (const address of ['::7f00:1', '::808:808', '::ffff:0:7f00:1', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(addressRefusal(address, 80, relaxed), address).not.toBeNull();
    }
    // IPv4-mapped is the IPv4 address itself, and ::1 stays plain loopback
    expect(addressRefusal('::ffff:127.0.0.1', 80, relaxed)).toBeNull();
    expect(addressRefusal('::1', 80, relaxed)).toBeNull();
    expect(addressRefusal('::ffff:8.8.8.8', 80, strict)).toBeNull();
  });

  it('judges only what Node takes for an IP address', () => {
    // ipaddr.js would read 010 as octal (8.0.0.1); Node would not connect to it as an address at all
    expect(addressRefusal('010.0.0.1', 80, strict)).toBe('not an IP address');
    expect(addressRefusal('example.com', 80, strict)).toBe('not an IP address');
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

  it('refuses a name whose DNS answer is an IPv6 form of a loopback or private address', async () => {
    const p = policy({
      'compat.test': ['::7f00:1'],
      'nat64.test': ['64:ff9b::a00:5'],
      'tunnel.test': ['2002:a00:1::'],
    });
    await expect(resolveTarget(new URL('http://compat.test/v.mp4'), p)).rejects.toThrow(
      'compat.test resolves to ::7f00:1, an IPv4-compatible IPv6 address (deprecated) carrying 127.0.0.1',
    );
    await expect(resolveTarget(new URL('http://nat64.test/v.mp4'), p)).rejects.toThrow('carrying 10.0.0.5');
    await expect(resolveTarget(new URL('http://tunnel.test/v.mp4'), p)).rejects.toThrow('6to4');
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
