import { expect } from 'vitest';
import type { CassetteEntry } from '../../llm/index.js';
import type { RecordedCall } from '../llm-run-helpers.js';
import { leakedRuns, ownSideTexts } from './secret-runs.js';

/** A recorded request's messages as one text. */
export const cassetteText = (e: CassetteEntry): string => e.request.messages.map((m) => m.content).join('\n');

/** One line of the paper's conversation history: `Turn #n: <Name> said: "…"` (or a non-verbal move, an action, a leave, or `Turn #n: ` for none). */
export const PAPER_HISTORY_LINE = /^Turn #\d+: (.+ (said: ".*"|\[(non-verbal communication|action)\] ".*"|left the conversation))?$/;

/** Every agents-mode request holds no partner secret, verbatim or as a run of its content words, and shows the partner's goal as Unknown. */
export function expectNoPartnerSecret(calls: readonly RecordedCall[]): void {
  for (const c of calls.filter((x) => x.mode === 'agents')) {
    const partner = c.scenario.seats.find((s) => s.seat !== c.seat)!;
    const text = cassetteText(c.entry);
    expect(text).not.toContain(partner.character.secret);
    expect(leakedRuns({ secrets: [partner.character.secret], allowed: ownSideTexts(c.scenario, c.seat) }, [text])).toEqual([]);
    expect(text).toContain(`${partner.character.name}'s goal: Unknown`);
  }
}

/** Every agent request's history (after its heading) is paper history lines; returns how many of them are said lines. */
export function paperHistorySaidLines(calls: readonly RecordedCall[]): number {
  let said = 0;
  for (const c of calls.filter((x) => x.mode !== 'script')) {
    const text = cassetteText(c.entry);
    const start = text.indexOf('The conversation starts:\n');
    expect(start, 'history heading').toBeGreaterThan(0);
    const history = text.slice(start + 'The conversation starts:\n'.length, text.indexOf('\n\nYou are at Turn #'));
    if (history === '') continue;
    // SOTOPIA's layout: a blank line before the first turn and between turns (each line one turn).
    expect(history.startsWith('\nTurn #'), 'a blank line before the first turn').toBe(true);
    for (const line of history.slice(1).split('\n\n')) {
      expect(line).toMatch(PAPER_HISTORY_LINE);
      if (/ said: "/.test(line)) said++;
    }
  }
  return said;
}
