import { describe, expect, it } from 'vitest';
import { ErrorCode, LlmErrorCode } from '../../protocol/index.js';
import { PAPER_PROTOCOL, PARLEY_PROTOCOL } from '../../simulation/index.js';
import { becomesNone } from './unparsable.js';

const failure = (code: string) => ({ code, message: `${code} (test)` });

describe('which failures are played as none', () => {
  it("a provider's failure after its retries is a none under paper (SOTOPIA caught every exception), a failure under parley", () => {
    for (const code of [LlmErrorCode.HttpError, LlmErrorCode.RateLimited, LlmErrorCode.Timeout, LlmErrorCode.Connection, LlmErrorCode.BadResponse]) {
      expect(becomesNone(failure(code), PAPER_PROTOCOL)).toBe('providerError');
      expect(becomesNone(failure(code), PARLEY_PROTOCOL)).toBeNull();
      expect(becomesNone(failure(code), { ...PAPER_PROTOCOL, onProviderError: 'fail' })).toBeNull();
      expect(becomesNone(failure(code), { ...PARLEY_PROTOCOL, onProviderError: 'none' })).toBe('providerError');
    }
  });

  it('an aborted call, a missing key, a bad spec, a replay mismatch or a bug still end the episode', () => {
    for (const code of [LlmErrorCode.Aborted, LlmErrorCode.NoKey, LlmErrorCode.BadSpec, LlmErrorCode.ReplayMismatch, ErrorCode.PolicyFailed]) {
      expect(becomesNone(failure(code), PAPER_PROTOCOL)).toBeNull();
    }
  });

  it('the two switches stay apart: an unreadable reply follows --on-unparsable only', () => {
    const unreadable = failure(ErrorCode.PolicyUnparsable);
    expect(becomesNone(unreadable, PAPER_PROTOCOL)).toBe('unparsable');
    expect(becomesNone(unreadable, { ...PAPER_PROTOCOL, onUnparsable: 'fail' })).toBeNull();
    expect(becomesNone(failure(LlmErrorCode.HttpError), { ...PAPER_PROTOCOL, onUnparsable: 'fail' })).toBe('providerError');
  });
});
