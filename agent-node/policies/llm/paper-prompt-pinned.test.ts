import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ProtocolView } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { paperScriptMessages } from './paper-prompt.js';
import { seatPromptMessages } from './seat-prompt.js';
import { loadTemplates } from './templates.js';
import { aliceView, event, scriptRequest, turnRequest } from './test-views.js';

/**
 * `--protocol paper` prompts are SOTOPIA's, byte for byte: the cache-friendly reordering of Parley's own
 * prompt (agent.md, issue 27) must not touch them. The digests below were taken from the prompts before
 * that reordering; a change here is a change of the paper reproduction and needs docs/fidelity.md too.
 * Changed on purpose since: the history's layout as SOTOPIA's (a blank line before the first turn and
 * between turns, an empty turn `Turn #n: ` with its space; docs/fidelity-audit.md row 6): turn 3's digests.
 */
const templates = loadTemplates();
const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
const PAPER: ProtocolView = { name: 'paper', backgrounds: 'code', scriptFormat: 'text' };
const history = [event(0, 'B', 'speak', 'Party on Friday?'), event(1, 'A', 'non-verbal communication', 'frowns'), event(2, 'B', 'action', 'opens the fridge')];

function paperView(mode: 'agents' | 'mindreaders', events = history): SeatView {
  const v = aliceView(mode, events);
  v.welcome.protocol = PAPER;
  return v;
}

describe('paper prompts are unchanged by the parley reordering', () => {
  it.each([
    ['agents, turn 0', paperView('agents', []), 0, '7615864ec313e42c'],
    ['agents, turn 3', paperView('agents'), 3, '3f2a7a478ab7c07e'],
    ['mindreaders, turn 3', paperView('mindreaders'), 3, '2b141680ede15f92'],
  ])('agent prompt, %s', (_, view, turn, expected) => {
    expect(digest(seatPromptMessages(templates, view, turnRequest(turn)))).toBe(expected);
  });

  it('script writer prompt', () => {
    expect(digest(paperScriptMessages(templates.script_paper, { ...scriptRequest(), protocol: PAPER }))).toBe('05c559324cbf6db1');
  });
});
