import { describe, expect, it } from 'vitest';
import { sharedLimitUrl, sharedRateLimitFor, SHARED_LIMIT_ENV } from './shared-limit.js';

describe('PARLEY_RATE_LIMIT_REDIS (set by parley worker for its agent processes)', () => {
  const of = (v: string | undefined) => sharedLimitUrl(v === undefined ? {} : { [SHARED_LIMIT_ENV]: v });

  it('unset or empty: no shared limits', () => {
    expect([of(undefined), of(''), of('  ')]).toEqual([null, null, null]);
  });

  it('a redis:// or rediss:// URL with a host is taken as given', () => {
    for (const url of ['redis://127.0.0.1:6379', 'rediss://user:pw@redis.example:6380/2', 'redis://localhost']) expect(of(url)).toBe(url);
  });

  it('anything else is refused, naming the variable and never the password', () => {
    expect(() => of('localhost:6379')).toThrow(/^PARLEY_RATE_LIMIT_REDIS \(set by parley worker for its agent processes\): expected redis:\/\/.*, got "localhost:6379"$/);
    expect(() => of('http://u:secret@host:6379')).toThrow('got "http://u:***@host:6379/"');
    expect(() => of('redis://u:secret@host:6379/queue')).toThrow('got "redis://u:***@host:6379/queue"');
    expect(() => of('not a url: secret')).toThrow(/got a value that is not a URL$/);
    expect(() => of('http://u:secret@host:6379')).not.toThrow(/secret/);
  });

  it('a client with a limit meets the refusal where its gate is made, before any Redis client exists', () => {
    expect(() => sharedRateLimitFor('k', { rpm: 10, tpm: 0 }, { [SHARED_LIMIT_ENV]: 'redis:/' })).toThrow(/PARLEY_RATE_LIMIT_REDIS/);
    // Without a limit the variable is not read.
    expect(sharedRateLimitFor('k', { rpm: 0, tpm: 0 }, { [SHARED_LIMIT_ENV]: 'redis:/' })).toBeNull();
  });
});
