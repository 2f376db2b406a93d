import { describe, expect, it } from 'vitest';
import { JudgeErrorCode } from '../protocol/index.js';
import { JudgedDeal, SeatJudgement } from './evaluation.js';

describe("a verdict's error code is an own code, typed by the registry", () => {
  it('accepts a judge code of the registry and refuses one outside it', () => {
    const error = (code: string) => ({ ok: false, error: { code, message: 'm', attempts: 2 } });
    expect(SeatJudgement.parse(error(JudgeErrorCode.BadJson))).toMatchObject({ ok: false, error: { code: 'judge/bad_json' } });
    expect(SeatJudgement.safeParse(error('judge/gave_up')).success).toBe(false);
    expect(JudgedDeal.safeParse(error('judge/gave_up')).success).toBe(false);
  });
});
