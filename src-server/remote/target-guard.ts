import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard of remote imports. A URL is fetched only when
 * - its scheme is http or https and it carries no user name or password;
 * - its host is not a local name (`localhost`, `*.localhost`, metadata names);
 * - every address it resolves to is public unicast: not loopback, private,
 *   link-local, CGNAT, multicast, broadcast, unspecified, reserved, a cloud
 *   metadata address, or an IPv6 form that carries an IPv4 address
 *   (IPv4-compatible `::/96`, IPv4-translated, NAT64, 6to4, Teredo), in any
 *   spelling (WHATWG URL parsing has already turned decimal, octal, hex and
 *   short IPv4 forms into dotted quads and compressed IPv6; IPv4-mapped
 *   `::ffff:a.b.c.d` is unwrapped here and judged as the IPv4 address).
 * The connection then goes to exactly the addresses that were checked, so a
 * second DNS answer cannot swap in a private one (DNS rebinding).
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface TargetPolicy {
  /** loopback and private ranges allowed (tests, local demo); metadata addresses stay refused */
  allowPrivate: boolean;
  /** exact `ip:port` pairs allowed while the guard stays on */
  allowedTargets: ReadonlySet<string>;
  resolve: HostResolver;
}

/**
 * A URL the guard will not fetch; `message` says why in words a person can act
 * on. `unresolved` marks a DNS failure, which may pass by itself later.
 */
export class TargetRefused extends Error {
  constructor(
    message: string,
    readonly unresolved = false,
  ) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** Metadata endpoints of cloud providers, refused even when private targets are allowed. */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '168.63.129.16',
  'fd00:ec2::254',
]);
const LOCAL_NAMES = [/^localhost$/, /\.localhost$/, /^metadata$/, /^metadata\.google\.internal$/, /^instance-data$/];

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat']);

interface Ipv4Embedding {
  range: [ipaddr.IPv6, number];
  name: string;
  /** the IPv4 address it carries, to name in the refusal; null where its place depends on the prefix */
  ipv4(parts: number[]): string | null;
}

const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
const v6Range = (cidr: string) => ipaddr.IPv6.parseCIDR(cidr);

/**
 * IPv6 forms that carry an IPv4 address: a translator, a tunnel relay or the
 * local stack may deliver them to that IPv4 address, loopback and private
 * ones included. They are refused whatever they carry (the guard cannot know
 * what the path will do with them), and checked here rather than left to
 * ipaddr.js's ranges, which call IPv4-compatible `::/96` plain unicast.
 * `::` and `::1` sit inside `::/96` but are judged as unspecified and loopback.
 */
const IPV4_EMBEDDINGS: readonly Ipv4Embedding[] = [
  { range: v6Range('::/96'), name: 'IPv4-compatible IPv6 address (deprecated)', ipv4: (p) => quad(p[6]!, p[7]!) },
  { range: v6Range('::ffff:0:0:0/96'), name: 'IPv4-translated address', ipv4: (p) => quad(p[6]!, p[7]!) },
  { range: v6Range('64:ff9b::/96'), name: 'NAT64 address', ipv4: (p) => quad(p[6]!, p[7]!) },
  { range: v6Range('64:ff9b:1::/48'), name: 'NAT64 address (local use)', ipv4: () => null },
  { range: v6Range('2002::/16'), name: '6to4 tunnel address', ipv4: (p) => quad(p[1]!, p[2]!) },
  // the client's IPv4 address is stored inverted (RFC 4380 §4)
  { range: v6Range('2001::/32'), name: 'Teredo tunnel address', ipv4: (p) => quad(p[6]! ^ 0xffff, p[7]! ^ 0xffff) },
];

/**
 * The address as ipaddr.js may safely read it, or null when Node would not
 * take it for an IP address (`010.0.0.1`), so the guard and the connection
 * never read one string two ways. IPv6 goes through WHATWG URL serialisation
 * (hex groups, no dotted tail, no zone): ipaddr.js reads any dotted tail as
 * IPv4-mapped, so `::8.8.8.8` (IPv4-compatible, the way getaddrinfo and Node
 * print an AAAA answer in `::/96`) would pass as the public 8.8.8.8.
 */
function canonicalAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return null;
  try {
    return new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/**
 * What kind of address this is when it may not be fetched ("a loopback
 * address"), or null when it may. `address` is unwrapped from IPv4-mapped IPv6
 * first, then judged as the IPv4 address.
 */
export function addressRefusal(
  address: string,
  port: number,
  policy: Pick<TargetPolicy, 'allowPrivate' | 'allowedTargets'>,
): string | null {
  const canonicalInput = canonicalAddress(address);
  if (canonicalInput === null || !ipaddr.isValid(canonicalInput)) return 'not an IP address';
  const ip = ipaddr.process(canonicalInput);
  const canonical = ip.toString();
  if (METADATA_ADDRESSES.has(canonical)) return 'a cloud metadata address';
  if (policy.allowedTargets.has(`${canonical}:${port}`)) return null;
  const range = ip.range();
  if (ip.kind() === 'ipv6' && range !== 'unspecified' && range !== 'loopback') {
    const embedding = IPV4_EMBEDDINGS.find((candidate) => ip.match(candidate.range));
    if (embedding) {
      const ipv4 = embedding.ipv4((ip as ipaddr.IPv6).parts);
      return `${withArticle(embedding.name)}${ipv4 ? ` carrying ${ipv4}` : ''}`;
    }
  }
  if (range === 'unicast') return null;
  if (policy.allowPrivate && PRIVATE_RANGES.has(range)) return null;
  return `${withArticle(describeRange(range))} address`;
}

function withArticle(words: string): string {
  return `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;
}

function describeRange(range: string): string {
  const words: Record<string, string> = {
    loopback: 'loopback',
    private: 'private network',
    uniqueLocal: 'private network (unique local)',
    linkLocal: 'link-local',
    carrierGradeNat: 'carrier-grade NAT',
    multicast: 'multicast',
    broadcast: 'broadcast',
    unspecified: 'unspecified',
    reserved: 'reserved',
    rfc6052: 'NAT64',
    rfc6145: 'IPv4-translated',
    '6to4': '6to4 tunnel',
    teredo: 'Teredo tunnel',
  };
  return words[range] ?? `non-public (${range})`;
}

function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Checks what can be checked without the network: scheme, credentials, local names. */
export function checkUrlShape(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetRefused(`the ${url.protocol.replace(/:$/, '')} scheme is not allowed, only http and https`);
  }
  if (url.username || url.password) throw new TargetRefused('URLs with a user name or password are not allowed');
  const host = hostOf(url);
  if (host === '') throw new TargetRefused('the URL has no host');
  const name = host.replace(/\.+$/, '').toLowerCase();
  if (LOCAL_NAMES.some((pattern) => pattern.test(name))) throw new TargetRefused(`${name} is a local host name`);
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves the URL's host and checks every address it has. Literal IP hosts
 * are checked directly: a DNS hook is never called for them.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<ResolvedAddress[]> {
  checkUrlShape(url);
  const host = hostOf(url);
  const port = portOf(url);
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await policy.resolve(host.replace(/\.+$/, ''));
    } catch {
      throw new TargetRefused(`the host ${host} could not be resolved`, true);
    }
    if (addresses.length === 0) throw new TargetRefused(`the host ${host} has no address`, true);
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, port, policy);
    if (refusal) {
      throw new TargetRefused(isIP(host) ? `${host} is ${refusal}` : `${host} resolves to ${address}, ${refusal}`);
    }
  }
  return addresses;
}
