import { describe, expect, it } from 'vitest';
import { addressBucket } from '../../src/domain/client-address.js';

describe('addressBucket', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
  });

  it('reduces an IPv6 address to its /64, however it is written', () => {
    expect(addressBucket('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0DB8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressBucket('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('puts anything that is no address into one bucket', () => {
    expect(addressBucket('unknown')).toBe(addressBucket(`x${'y'.repeat(1000)}`));
    expect(addressBucket('')).toBe(addressBucket('not an address'));
  });
});
