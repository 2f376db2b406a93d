import { describe, expect, it } from 'vitest';
import { addressKey, connectionLimits, DEFAULT_CONNECTION_LIMITS } from './connection-cap.js';

describe('connectionLimits (PARLEY_MAX_CONNECTIONS, PARLEY_MAX_CONNECTIONS_PER_ADDRESS: take effect or are refused)', () => {
  it('unset or empty: the defaults', () => {
    expect(connectionLimits({})).toEqual(DEFAULT_CONNECTION_LIMITS);
    expect(connectionLimits({ PARLEY_MAX_CONNECTIONS: ' ', PARLEY_MAX_CONNECTIONS_PER_ADDRESS: '' })).toEqual(DEFAULT_CONNECTION_LIMITS);
  });

  it('takes whole numbers from 1 to 1,000,000', () => {
    expect(connectionLimits({ PARLEY_MAX_CONNECTIONS: '10000', PARLEY_MAX_CONNECTIONS_PER_ADDRESS: ' 16 ' })).toEqual({ ...DEFAULT_CONNECTION_LIMITS, total: 10_000, perAddress: 16 });
    expect(connectionLimits({ PARLEY_MAX_CONNECTIONS: '1' }).total).toBe(1);
    expect(connectionLimits({ PARLEY_MAX_CONNECTIONS_PER_ADDRESS: '1000000' }).perAddress).toBe(1_000_000);
  });

  it('refuses anything else, naming the setting, never taking it as no limit', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', 'Infinity', '1e3', '1000001', '0x10', '12 34']) {
      expect(() => connectionLimits({ PARLEY_MAX_CONNECTIONS: bad })).toThrow(/^PARLEY_MAX_CONNECTIONS: expected a whole number from 1 to 1000000/);
      expect(() => connectionLimits({ PARLEY_MAX_CONNECTIONS_PER_ADDRESS: bad })).toThrow(/^PARLEY_MAX_CONNECTIONS_PER_ADDRESS: expected/);
    }
  });
});

describe('addressKey: what a connection counts against', () => {
  it('an IPv4 address as it is, an IPv4-mapped one as its IPv4 address', () => {
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey(undefined)).toBe('unknown');
  });

  it('an IPv6 address by its /64, however it is written', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8::5')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
