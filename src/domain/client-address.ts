import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit of limiting for a client address: an IPv4 address itself, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so per-address buckets would be free to evade), an
 * IPv4-mapped IPv6 address as its IPv4 address. Anything else shares one bucket.
 */
export function addressBucket(address: string): string {
  if (isIPv4(address)) return address;
  const withoutZone = address.replace(/%.*$/, '');
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
  const dottedTail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dottedTail
    ? `${address.slice(0, dottedTail.index)}${((Number(dottedTail[1]) << 8) | Number(dottedTail[2])).toString(16)}:${((Number(dottedTail[3]) << 8) | Number(dottedTail[4])).toString(16)}`
    : address;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const headGroups = parse(head);
  const tailGroups = tail === undefined ? [] : parse(tail);
  const zeros = Array.from({ length: 8 - headGroups.length - tailGroups.length }, () => 0);
  return [...headGroups, ...zeros, ...tailGroups];
}
