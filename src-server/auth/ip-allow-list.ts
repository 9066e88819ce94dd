import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** `::ffff:10.0.0.1` and `10.0.0.1` are the same client: compare in one form. */
function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.process(address);
}

/** Parses one allow-list entry: an address or a CIDR range, IPv4 or IPv6. Throws on nonsense. */
export function parseAllowEntry(entry: string): Range {
  const trimmed = entry.trim();
  if (trimmed.includes('/')) {
    const [address, bits] = ipaddr.parseCIDR(trimmed);
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [address, bits];
  }
  const address = normalise(trimmed);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** True when `clientAddress` falls inside one of the entries. An empty list allows everyone. */
export function isAddressAllowed(clientAddress: string, entries: readonly string[]): boolean {
  if (entries.length === 0) return true;
  if (!ipaddr.isValid(clientAddress)) return false;
  const client = normalise(clientAddress);
  return entries.some((entry) => {
    const [range, bits] = parseAllowEntry(entry);
    return range.kind() === client.kind() && client.match(range, bits);
  });
}
