import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit of limiting for a client address: an IPv4 address itself, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so per-address buckets would be free to evade), an
 * IPv4-mapped IPv6 address as its IPv4 address. Anything else shares one bucket.
 */
export function addressBucket(address: string): string {
  if (isIPv4(address)) return address;
  const zone = address.indexOf('%');
  const withoutZone = zone < 0 ? address : address.slice(0, zone);
  if (!isIPv6(withoutZone)) return 'unparsable';
  const groups = ipv6Groups(withoutZone);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  // A dotted IPv4 tail (`::ffff:192.0.2.1`) comes after the last colon: it becomes two groups.
  const lastColon = address.lastIndexOf(':');
  const ipv4Tail = address.slice(lastColon + 1);
  const [a = 0, b = 0, c = 0, d = 0] = ipv4Tail.split('.').map(Number);
  const hex = isIPv4(ipv4Tail)
    ? `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
    : address;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const headGroups = parse(head);
  const tailGroups = tail === undefined ? [] : parse(tail);
  const zeros = Array.from({ length: 8 - headGroups.length - tailGroups.length }, () => 0);
  return [...headGroups, ...zeros, ...tailGroups];
}
