import { describe, expect, it } from 'vitest';
import { addressBucket } from '../../src/domain/client-address.js';
import { AddressLimiter } from '../../src/stores/address-limiter.js';

const MINUTE_MS = 60_000;

describe('AddressLimiter', () => {
  it('limits an address once its budget of failures is spent, and only that address', () => {
    const limiter = new AddressLimiter({ perMinute: 3 });
    const verdicts = Array.from({ length: 5 }, () => limiter.spend('10.0.0.1', 0).limited);
    expect(verdicts).toEqual([false, false, false, true, true]);
    expect(limiter.spend('10.0.0.1', 0)).toEqual({ limited: true, retryAfterSeconds: 20 });
    expect(limiter.spend('10.0.0.2', 0)).toEqual({ limited: false });
  });

  it('gives failures back as time passes, one per 60/budget seconds', () => {
    const limiter = new AddressLimiter({ perMinute: 60 });
    for (let failure = 0; failure < 60; failure++) limiter.spend('10.0.0.1', 0);
    expect(limiter.spend('10.0.0.1', 999)).toEqual({ limited: true, retryAfterSeconds: 1 });
    expect(limiter.spend('10.0.0.1', 1000)).toEqual({ limited: false });
    expect(limiter.spend('10.0.0.1', 1000).limited).toBe(true);
  });

  it('forgets an address a minute after its last failure', () => {
    const limiter = new AddressLimiter({ perMinute: 2 });
    limiter.spend('10.0.0.1', 0);
    limiter.spend('10.0.0.2', 30_000);
    expect(limiter.trackedAddresses).toBe(2);
    limiter.spend('10.0.0.3', MINUTE_MS - 1);
    expect(limiter.trackedAddresses).toBe(3);
    limiter.spend('10.0.0.3', MINUTE_MS);
    expect(limiter.trackedAddresses).toBe(2);
    limiter.spend('10.0.0.3', 30_000 + MINUTE_MS);
    expect(limiter.trackedAddresses).toBe(1);
  });

  it('holds at most its cap of addresses under a spray, forgetting the least recently failing', () => {
    const limiter = new AddressLimiter({ perMinute: 1, maxTrackedAddresses: 100 });
    limiter.spend('192.0.2.1', 0);
    expect(limiter.spend('192.0.2.1', 0).limited).toBe(true);
    let mostTracked = 0;
    for (let index = 0; index < 100_000; index++) {
      limiter.spend(`10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`, 1);
      mostTracked = Math.max(mostTracked, limiter.trackedAddresses);
    }
    expect(mostTracked).toBe(100);
    // The sprayer's addresses pushed the limited one out; the most recent stay limited.
    expect(limiter.spend('192.0.2.1', 2).limited).toBe(false);
    expect(limiter.spend('10.1.134.159', 2).limited).toBe(true);
  });

  it('keeps a repeatedly failing address at the back, away from eviction', () => {
    const limiter = new AddressLimiter({ perMinute: 1, maxTrackedAddresses: 2 });
    limiter.spend('192.0.2.1', 0);
    limiter.spend('192.0.2.2', 0);
    limiter.spend('192.0.2.1', 0);
    limiter.spend('192.0.2.3', 0);
    expect(limiter.spend('192.0.2.1', 0).limited).toBe(true);
    expect(limiter.spend('192.0.2.2', 0).limited).toBe(false);
  });

  it('counts every address of one IPv6 /64 together', () => {
    const limiter = new AddressLimiter({ perMinute: 2 });
    limiter.spend('2001:db8:1:2::1', 0);
    limiter.spend('2001:db8:1:2:ffff:ffff:ffff:ffff', 0);
    expect(limiter.spend('2001:0db8:0001:0002:abcd::9', 0).limited).toBe(true);
    expect(limiter.spend('2001:db8:1:3::1', 0).limited).toBe(false);
    expect(limiter.trackedAddresses).toBe(2);
  });
});

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
