import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, type TurnEvent } from '../../../protocol/index.js';
import { seatAddressees, seatPromptMessages } from './seat-prompt.js';
import { actionJsonSchema, parseAction } from './parse-action.js';
import { loadTemplates } from './templates.js';
import { parseScript, scriptJsonSchema } from './parse-script.js';
import { scriptMessages } from './script-prompt.js';
import { aliceView, event, groupView, scriptRequest, turnRequest } from './test-views.js';

const PAPER = { name: 'paper', backgrounds: 'code', scriptFormat: 'text' } as const;
const templates = loadTemplates();
const whisper = (turn: number, seat: string, argument: string, to: string[]): TurnEvent => ({ ...event(turn, seat, 'speak', argument), action: { type: 'speak', argument, to } });
const text = (view: Parameters<typeof seatPromptMessages>[1], turn = 2) => seatPromptMessages(templates, view, turnRequest(turn)).map((m) => m.content).join('\n');

/** Private moves for LLM seats (issue 39): offered in groups only, rendered as SOTOPIA marks them, read back to seat ids. */
describe('private moves in LLM prompts and replies', () => {
  it('a group prompt offers "to" with the others\' names; a two-seat prompt does not mention it', () => {
    for (const protocol of [undefined, PAPER]) {
      const group = text(groupView('agents', protocol));
      expect(group).toContain('"to" makes the move private');
      expect(group).toContain('chosen from "Bob Lee" and "Cleo Park"');
      const pair = text(protocol ? { ...aliceView(), welcome: { ...aliceView().welcome, protocol } } : aliceView());
      expect(pair).not.toContain('"to"');
      expect(pair).not.toContain('private');
    }
  });

  it('a whisper the seat received is marked [private to …] in its history, under both protocols', () => {
    const events = [whisper(0, 'B', 'Cleo owes me money', ['A']), event(1, 'C', 'speak', 'Hello all')];
    expect(text(groupView('agents', undefined, events))).toContain('Turn #0: Bob Lee [private to Alice Chen] said: "Cleo owes me money"');
    expect(text(groupView('agents', PAPER, events))).toContain('Turn #0: Bob Lee [private to Alice Chen] said: "Cleo owes me money"');
    expect(text(groupView('agents', PAPER, events))).toContain('Turn #1: Cleo Park said: "Hello all"');
  });

  it('reads "to" by name, first name or seat id into seat ids; [] is public; the schema asks for it in groups only', () => {
    const to = seatAddressees(groupView(), turnRequest(0));
    expect(parseAction('{"action_type": "speak", "argument": "psst", "to": ["Cleo Park"]}', [...ACTION_TYPES], to)).toMatchObject({ ok: true, value: { to: ['C'] }, lenient: false });
    expect(parseAction('{"action_type": "speak", "argument": "psst", "to": ["cleo", "B", "Cleo Park"]}', [...ACTION_TYPES], to)).toMatchObject({ ok: true, value: { to: ['C', 'B'] } });
    const open = parseAction('{"action_type": "speak", "argument": "hi", "to": []}', [...ACTION_TYPES], to);
    expect(open.ok && open.value).toEqual({ type: 'speak', argument: 'hi' });
    expect(actionJsonSchema(['speak'], to).schema).toMatchObject({ required: ['action_type', 'argument', 'to'], properties: { to: { items: { enum: ['Bob Lee', 'Cleo Park'] } } } });
    expect(actionJsonSchema(['speak'], seatAddressees(aliceView(), turnRequest(0))).schema).toMatchObject({ required: ['action_type', 'argument'] });
  });

  it('an unknown name, the seat itself or a private leave is unreadable (the repair ladder asks again); two seats ignore "to"', () => {
    const to = seatAddressees(groupView(), turnRequest(0));
    expect(parseAction('{"action_type": "speak", "argument": "psst", "to": ["Dan"]}', [...ACTION_TYPES], to)).toMatchObject({ ok: false, reason: expect.stringContaining('"Dan" is not one of the others') });
    expect(parseAction('{"action_type": "speak", "argument": "psst", "to": ["Alice Chen"]}', [...ACTION_TYPES], to)).toMatchObject({ ok: false, reason: expect.stringContaining('yourself') });
    expect(parseAction('{"action_type": "leave", "argument": "", "to": ["Bob Lee"]}', [...ACTION_TYPES], to)).toMatchObject({ ok: false, reason: expect.stringContaining('cannot be private') });
    const pair = parseAction('{"action_type": "speak", "argument": "hi", "to": ["Bob Lee"]}', [...ACTION_TYPES], seatAddressees(aliceView(), turnRequest(0)));
    expect(pair.ok && pair.value).toEqual({ type: 'speak', argument: 'hi' });
  });

  it('a group script may make a turn private ("to" by seat id or name, [] public); a wrong list is unreadable; two seats ignore it', () => {
    const base = scriptRequest(20);
    const cleo = { seat: 'C', profile: { name: 'Cleo Park' }, goal: 'g', hints: [], task: null, partners: [] };
    const group = { ...base, background: { ...base.background, scenario: { ...base.background.scenario, seats: ['A', 'B', 'C'] }, seats: [...base.background.seats, cleo] } };
    const script = (to: unknown) => JSON.stringify({ turns: [{ seat: 'A', action_type: 'speak', argument: 'psst', to }, { seat: 'B', action_type: 'speak', argument: 'hi', to: [] }] });
    expect(parseScript(script(['C']), group)).toMatchObject({ ok: true, value: [{ seat: 'A', action: { to: ['C'] } }, { seat: 'B', action: { type: 'speak', argument: 'hi' } }] });
    expect(parseScript(script(['Cleo Park']), group)).toMatchObject({ ok: true, value: [{ action: { to: ['C'] } }, {}] });
    expect(parseScript(script(['A']), group)).toMatchObject({ ok: false, reason: expect.stringContaining('turn 0: to names the speaker A') });
    expect(scriptJsonSchema(['A', 'B', 'C'], ['speak']).schema).toMatchObject({ properties: { turns: { items: { required: ['seat', 'action_type', 'argument', 'to'] } } } });
    expect(scriptMessages(templates.script, group).map((m) => m.content).join('\n')).toContain('"to" makes a turn private');
    const pair = parseScript(script(['B']), base);
    expect(pair.ok && pair.value[0]!.action).toEqual({ type: 'speak', argument: 'psst' });
    expect(scriptMessages(templates.script, base).map((m) => m.content).join('\n')).not.toContain('"to"');
  });
});
