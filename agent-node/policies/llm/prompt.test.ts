import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { agentMessages } from './agent-prompt.js';
import { messageListJson } from '../../../llm/json-prefix.js';
import { scriptMessages } from './script-prompt.js';
import { agentValues } from './agent-prompt.js';
import { fillTemplate, loadTemplate, loadTemplates, parseTemplate } from './templates.js';
import {
  ALICE_GOAL, ALICE_HINT, ALICE_SECRET, BOB_GOAL, BOB_HINT, BOB_SECRET, aliceView, event, scriptRequest, turnRequest,
} from './test-views.js';

const templates = loadTemplates();
const text = (msgs: { content: string }[]) => msgs.map((m) => m.content).join('\n');

describe('agent prompt', () => {
  it('puts the unchanging part first: system message, background, how to answer; then the conversation; the turn last', () => {
    const msgs = agentMessages(templates.agent, aliceView('agents', [event(0, 'B', 'speak', 'Party on Friday?')]), turnRequest(1));
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user']);
    const user = msgs[1]!.content;
    const order = [ALICE_GOAL, 'Bob Lee', '# How to answer', '"action_type" must be one of', '# The conversation so far', 'Turn #0: Bob Lee said: "Party on Friday?"', 'You are at Turn #1'].map((s) => user.indexOf(s));
    expect(order.every((i) => i >= 0), JSON.stringify(order)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('a later turn repeats the previous prompt up to the end of its conversation; only a short turn line follows (prompt caching)', () => {
    const before = [event(0, 'B', 'speak', 'Party on Friday?')];
    const msgs = agentMessages(templates.agent, aliceView('agents', before), turnRequest(1));
    const later = agentMessages(templates.agent, aliceView('agents', [...before, event(1, 'A', 'speak', 'No.'), event(2, 'B', 'speak', 'Why not?')]), turnRequest(3));
    expect(later[0]).toEqual(msgs[0]);
    const user = msgs[1]!.content;
    const conversationEnd = user.indexOf('Turn #0: Bob Lee said: "Party on Friday?"') + 'Turn #0: Bob Lee said: "Party on Friday?"'.length;
    expect(later[1]!.content.slice(0, conversationEnd)).toBe(user.slice(0, conversationEnd));
    // What changes every turn is one short line after the conversation.
    expect(user.length - conversationEnd).toBeLessThan(160);
    expect(user.slice(conversationEnd)).toContain('You are at Turn #1');
  });

  it('a seat playing on (one welcome, its text filled once) gets exactly the prompt a fresh fill gives, also when a peer state arrives or the allowed actions change', () => {
    const steady = aliceView('agents');
    const mind = aliceView('mindreaders');
    const turns: Array<[SeatView, TurnRequest]> = [
      [steady, turnRequest(0)],
      [{ ...steady, events: [event(0, 'A', 'speak', 'Hi.')] }, turnRequest(1)],
      [{ ...steady, events: [event(0, 'A', 'speak', 'Hi.'), event(1, 'B', 'speak', 'Hey.')] }, turnRequest(2, ['speak', 'leave'])],
      // Bob's private state arrives on the same welcome (a peer.state frame): the partner goals change.
      [{ ...steady, peers: mind.peers, events: [event(0, 'A', 'speak', 'Hi.')] }, turnRequest(3, ['speak', 'leave'])],
      [{ ...steady, peers: mind.peers }, turnRequest(4)],
    ];
    const seen = new Set<string>();
    for (const [view, request] of turns) {
      const fresh = fillTemplate(templates.agent, agentValues(structuredClone(view), request));
      const got = agentMessages(templates.agent, view, request);
      expect(got).toEqual(fresh);
      seen.add(text(got));
    }
    expect(seen.size).toBe(turns.length);
    expect(text(agentMessages(templates.agent, turns[4]![0], turns[4]![1]))).toContain(BOB_GOAL);
    expect(text(agentMessages(templates.agent, turns[0]![0], turns[0]![1]))).not.toContain(BOB_GOAL);
  });

  it("a seat playing on reuses its steady text's JSON (system message, the user message's head), with JSON.stringify's bytes", () => {
    const view = aliceView('agents');
    agentMessages(templates.agent, view, turnRequest(0));
    const later = agentMessages(templates.agent, { ...view, events: [event(0, 'A', 'speak', 'Hi.')] }, turnRequest(1));
    // Marked (llm/json-prefix.ts): a symbol JSON, spreads and keys do not see.
    expect(later.map((m) => Object.getOwnPropertySymbols(m).length)).toEqual([1, 1]);
    expect(messageListJson(later)).toBe(JSON.stringify(later));
  });

  it('agents mode: own goal, hint and secret; the partner visible by relationship; partner goal unknown', () => {
    const all = text(agentMessages(templates.agent, aliceView('agents'), turnRequest(0)));
    for (const own of [ALICE_GOAL, ALICE_HINT, ALICE_SECRET, 'Alice Chen']) expect(all).toContain(own);
    expect(all).toContain('You and Bob Lee are friends.');
    expect(all).toContain("Bob Lee's goal is unknown to you.");
    for (const theirs of [BOB_GOAL, BOB_HINT, BOB_SECRET]) expect(all).not.toContain(theirs);
  });

  it("mindreaders mode: the partner's goal, hints and secret from peer.state", () => {
    const all = text(agentMessages(templates.agent, aliceView('mindreaders'), turnRequest(0)));
    for (const theirs of [BOB_GOAL, BOB_HINT, BOB_SECRET, ALICE_GOAL]) expect(all).toContain(theirs);
    expect(all).not.toContain('unknown to you');
  });

  it('states the turn, the limit and the allowed actions, and asks for {action_type, argument}', () => {
    const all = text(agentMessages(templates.agent, aliceView(), turnRequest(3, ['speak', 'leave'])));
    expect(all).toContain('Turn #3');
    expect(all).toContain('at most 10 turns (7 left');
    expect(all).toContain('"action_type" must be one of: "speak", "leave"');
    expect(all).not.toContain('"non-verbal communication":');
    expect(all).toContain('{"action_type"');
  });

  it('names a partner the relationship does not name by seat', () => {
    const view = aliceView();
    view.welcome.partners = [{ seat: 'B', relationship: 0, profile: {} }];
    const all = text(agentMessages(templates.agent, { ...view, events: [event(0, 'B', 'speak', 'hi')] }, turnRequest(1)));
    expect(all).toContain('You and the person in seat B are strangers');
    expect(all).toContain('Turn #0: the person in seat B said: "hi"');
    expect(all).not.toContain('Bob');
  });
});

describe('script prompt', () => {
  it('carries both characters in full, seats, max turns and the output shape', () => {
    const all = text(scriptMessages(templates.script, scriptRequest(6)));
    for (const s of [ALICE_GOAL, ALICE_SECRET, BOB_GOAL, BOB_SECRET, 'Alice Chen and Bob Lee are friends.', 'at most 6 turns', '"seat" must be one of: "A", "B"', '{"turns"']) {
      expect(all).toContain(s);
    }
  });
});

describe('templates', () => {
  it('puts verbatim values in after the tidying (a trailing blank kept); an empty one is tidied away like any other', () => {
    const t = parseTemplate('agent_paper', 'x.md', '<!-- user -->\nStarts:\n\n{{history}}\n\nTurn {{turn}}. {{name}}\n');
    const history = 'Turn #0: A said: "hi"\n\nTurn #1: ';
    expect(fillTemplate(t, { history, turn: 2, name: 'Ann ' }, ['history'])).toEqual([{ role: 'user', content: `Starts:\n\n${history}\n\nTurn 2. Ann` }]);
    expect(fillTemplate(t, { history, turn: 2, name: 'Ann' })[0]!.content).toContain('Turn #1:\n\nTurn 2.');
    expect(fillTemplate(t, { history: '', turn: 0, name: 'Ann' }, ['history'])).toEqual([{ role: 'user', content: 'Starts:\n\nTurn 0. Ann' }]);
  });

  it('names file, line and placeholder for an unknown placeholder', () => {
    expect(() => parseTemplate('agent', 'my/agent.md', '<!-- system -->\nHi {{name}}\n<!-- user -->\n{{nope}}\n')).toThrow('my/agent.md:4: unknown placeholder {{nope}}');
    expect(() => parseTemplate('agent', 'x.md', 'no markers')).toThrow(/before the first/);
  });

  it('a promptDir overrides the built-in template it provides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-prompts-'));
    try {
      writeFileSync(join(dir, 'agent.md'), '<!-- note for editors -->\n<!-- user -->\nYou are {{name}}. Goal: {{goal}}. Turn {{turn}}.\n');
      const custom = loadTemplates(dir);
      expect(custom.agent.file).toBe(join(dir, 'agent.md'));
      expect(custom.script.file).toBe(loadTemplate('script').file);
      expect(agentMessages(custom.agent, aliceView(), turnRequest(2))).toEqual([{ role: 'user', content: `You are Alice Chen. Goal: ${ALICE_GOAL}. Turn 2.` }]);
      expect(() => loadTemplates(join(dir, 'missing'))).toThrow(/does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses a file once per process, and again once it has been edited', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-prompts-'));
    try {
      const file = join(dir, 'agent.md');
      writeFileSync(file, '<!-- user -->\nYou are {{name}}.\n');
      const first = loadTemplate('agent', dir);
      expect(loadTemplate('agent', dir)).toBe(first);
      expect(loadTemplates(dir).agent).toBe(first);
      writeFileSync(file, '<!-- user -->\nYou are {{name}}, on turn {{turn}}.\n');
      utimesSync(file, new Date(), new Date(Date.now() + 5_000));
      const edited = loadTemplate('agent', dir);
      expect(edited).not.toBe(first);
      expect(edited.parts[0]!.text).toContain('on turn {{turn}}');
      // A bad edit still fails at load, cached or not.
      writeFileSync(file, '<!-- user -->\n{{nope}}\n');
      utimesSync(file, new Date(), new Date(Date.now() + 10_000));
      expect(() => loadTemplate('agent', dir)).toThrow(/unknown placeholder \{\{nope\}\}/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
