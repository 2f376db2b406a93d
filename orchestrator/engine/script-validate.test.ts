import { describe, expect, it } from 'vitest';
import { type ScriptTurn } from '../../protocol/index.js';
import { PAPER_PROTOCOL, PARLEY_PROTOCOL } from '../../simulation/index.js';
import { generateGroupScenarios } from '../../scenarios/generate/groups.js';
import { openFixture } from '../../test/fixtures/scenarios.js';
import { validateScript } from './script-validate.js';

const turn = (seat: string, type: ScriptTurn['action']['type'], argument = ''): ScriptTurn => ({ seat, action: { type, argument } });

describe('validateScript', () => {
  // A, then B doing nothing, then four more: a live round-robin episode would stop at B's `none` under
  // SOTOPIA's stale rule; SOTOPIA's script mode applies no stop rule to a script.
  const script = [turn('A', 'speak', 'hi'), turn('B', 'none'), turn('A', 'speak', 'well?'), turn('B', 'speak', 'sorry'), turn('A', 'speak', 'fine'), turn('B', 'speak', 'bye')];

  it('keeps the whole script under --protocol paper, as SOTOPIA\'s script mode judges every parsed turn', () => {
    const v = validateScript(openFixture(2), script, 20, 0, {}, PAPER_PROTOCOL);
    expect(v).toMatchObject({ ok: true, dropped: 0, termination: { reason: 'script_end' } });
    expect(v.ok && v.turns).toHaveLength(6);
    const long = Array.from({ length: 30 }, (_, i) => turn(i % 2 ? 'B' : 'A', 'speak', `line ${i}`));
    expect(validateScript(openFixture(2), long, 20, 0, {}, PAPER_PROTOCOL)).toMatchObject({ ok: true, dropped: 0 });
  });

  it('cuts it where a live episode would end under --protocol parley, counting what it drops', () => {
    const long = Array.from({ length: 30 }, (_, i) => turn(i % 2 ? 'B' : 'A', 'speak', `line ${i}`));
    const v = validateScript(openFixture(2), long, 20, 0, {}, PARLEY_PROTOCOL);
    expect(v).toMatchObject({ ok: true, dropped: 10, termination: { reason: 'max_turns' } });
  });

  it('keeps a private script turn private (its recipients recorded) and refuses one with wrong recipients', () => {
    const group = generateGroupScenarios(1)[0]!;
    const whisper: ScriptTurn = { seat: 'agent1', action: { type: 'speak', argument: 'psst', to: ['agent3'] } };
    const v = validateScript(group, [whisper, turn('agent2', 'speak', 'hello')], 20, 0, {}, PARLEY_PROTOCOL);
    expect(v.ok && v.turns[0]).toMatchObject({ action: { to: ['agent3'] }, to: ['agent1', 'agent3'] });
    expect(v.ok && v.turns[1]!.to).toBeUndefined();
    const bad = validateScript(group, [{ seat: 'agent1', action: { type: 'speak', argument: 'psst', to: ['agent1'] } }], 20, 0, {}, PARLEY_PROTOCOL);
    expect(bad).toMatchObject({ ok: false, message: expect.stringContaining('script turn 0: to names the speaker') });
  });
});
