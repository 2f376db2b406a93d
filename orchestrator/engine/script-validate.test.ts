import { describe, expect, it } from 'vitest';
import { type ScriptTurn } from '../../protocol/index.js';
import { PAPER_PROTOCOL, PARLEY_PROTOCOL } from '../../simulation/index.js';
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
});
