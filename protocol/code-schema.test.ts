import { describe, expect, it } from 'vitest';
import { ALL_ERROR_CODES, ErrorCode, JudgeErrorCode, LlmErrorCode, OWN_CODES, RunErrorCode } from './codes.js';
import { OwnCodeField, ReportedCodeField } from './code-schema.js';
import { decodeAgentFrame, decodeOrchestratorFrame } from './decode.js';
import { EpisodeError, SeatEvent, TurnRecord } from './record.js';

/**
 * Codes released before the registry typed records (issue 22), one per table: records on disk carry them,
 * so they must stay valid own codes forever. A code taken off the registry fails here.
 */
const RELEASED = ['protocol/bad_frame', 'seat/disconnected', 'turn/deadline_missed', 'policy/failed', 'llm/timeout', 'scenarios/bad_json', 'run/summary_failed', 'bot/no_task', 'judge/bad_json'];

describe('record schemas type codes by the registry', () => {
  it('an own-code field refuses a code the registry does not hold, and accepts every code it does', () => {
    expect(OwnCodeField.safeParse('seat/made_up').success).toBe(false);
    expect(OwnCodeField.safeParse('Seat closed').success).toBe(false);
    for (const code of OWN_CODES) expect(OwnCodeField.parse(code)).toBe(code);
    expect(new Set(OWN_CODES).size).toBe(OWN_CODES.length);
  });

  it('every table is in the registry, and released codes are never taken off', () => {
    for (const table of [ErrorCode, LlmErrorCode, RunErrorCode, JudgeErrorCode]) for (const c of Object.values(table)) expect(ALL_ERROR_CODES.has(c)).toBe(true);
    for (const c of RELEASED) expect(ALL_ERROR_CODES.has(c), c).toBe(true);
  });

  it("a seat event (the orchestrator's own) with an unknown code fails validation", () => {
    const event = { seat: 'agent1', kind: 'lost', atMs: 5 };
    expect(SeatEvent.parse({ ...event, code: ErrorCode.Disconnected }).code).toBe('seat/disconnected');
    expect(SeatEvent.safeParse({ ...event, code: 'seat/vanished' }).success).toBe(false);
  });

  it("a reported code (a remote seat's failure) is held to the grammar only: an unknown code of another version is kept", () => {
    const turn = { turn: 2, seat: 'agent1', action: null, atMs: 10 };
    expect(TurnRecord.parse({ ...turn, error: { code: 'acme/quota_gone', message: 'x' } }).error?.code).toBe('acme/quota_gone');
    expect(TurnRecord.safeParse({ ...turn, error: { code: 'not a code\nforged', message: 'x' } }).success).toBe(false);
    expect(EpisodeError.safeParse({ code: 'x'.repeat(70) + '/y', message: 'm' }).success).toBe(false);
    expect(ReportedCodeField.safeParse('llm/timeout').success).toBe(true);
  });

  it('frames: an agent may report any grammatical code on turn.fail; an error frame from a newer orchestrator still decodes', () => {
    const fail = decodeAgentFrame(JSON.stringify({ v: 1, type: 'turn.fail', id: 'f1', turn: 0, error: { code: 'acme/oops', message: 'm' }, meta: { policy: 'x', latencyMs: 1 } }));
    expect(fail.ok).toBe(true);
    const badFail = decodeAgentFrame(JSON.stringify({ v: 1, type: 'turn.fail', id: 'f1', turn: 0, error: { code: 'oops', message: 'm' }, meta: { policy: 'x', latencyMs: 1 } }));
    expect(badFail.ok).toBe(false);
    expect(decodeOrchestratorFrame(JSON.stringify({ v: 1, type: 'error', id: 'e1', code: 'seat/newer_reason', message: 'm' })).ok).toBe(true);
    expect(decodeOrchestratorFrame(JSON.stringify({ v: 1, type: 'error', id: 'e1', code: '<b>', message: 'm' })).ok).toBe(false);
  });
});
