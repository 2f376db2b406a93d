import { describe, expect, it } from 'vitest';
import { buildTranscript, lineText } from '../transcript/transcript.js';
import { frameText } from '../transcript/ledger-text.js';
import { episode, openScenario } from '../testing/fixtures.js';
import { paperTranscript } from './paper-view.js';
import { renderTranscript } from './transcript.js';

/** A two-seat open episode whose first move is marked private to the second seat (the marking is what is tested). */
function whispered() {
  const scenario = openScenario();
  const [a, b] = scenario.seats.map((s) => s.seat) as [string, string];
  const record = episode({ scenario, moves: [[a, 'speak', 'psst, the key is under the mat'], [b, 'speak', 'hello']] });
  record.turns[0]!.action!.to = [b];
  record.turns[0]!.to = [a, b];
  const names = scenario.seats.map((s) => s.character.name) as [string, string];
  return { scenario, record, names };
}

/** Issue 39: the judge's full view and the transcripts show a private move with its recipients. */
describe('private moves in the judge view and transcripts', () => {
  it('the judge transcript marks it "[private to Name]" under both protocols; public moves as before', () => {
    const { scenario, record, names } = whispered();
    expect(renderTranscript(record, scenario)).toBe(`Turn #0: ${names[0]} [private to ${names[1]}] said: "psst, the key is under the mat"\nTurn #1: ${names[1]} said: "hello"`);
    expect(paperTranscript(record, scenario)).toContain(`${names[0]} [private to ${names[1]}] said: "psst, the key is under the mat"`);
  });

  it('parley show and the report pages mark it; a seat\'s ledger line keeps its recipients', () => {
    const { scenario, record, names } = whispered();
    const lines = buildTranscript(record, scenario).lines;
    expect(lineText(lines[0]!)).toBe(`#0 ${names[0]} [private to ${names[1]}]: "psst, the key is under the mat"`);
    expect(lineText(lines[1]!)).toBe(`#1 ${names[1]}: "hello"`);
    const frame = JSON.stringify({ v: 1, id: 'o3', type: 'turn.event', turn: 0, seat: 'agent1', action: { type: 'speak', argument: 'psst', to: ['agent2'] } });
    expect(frameText(3, frame)).toBe('[3] turn.event    turn 0: agent1 [speak] "psst" private to ["agent2"]');
  });
});
