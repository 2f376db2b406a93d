import { describe, expect, it } from 'vitest';
import type { ScriptRequest } from '../../../protocol/index.js';
import { agentValues } from './agent-prompt.js';
import { agentContext, paperScriptValues, scriptContext } from './paper-prompt.js';
import { parseScriptText } from './parse-script-text.js';
import { listNames } from './render.js';
import { aliceView, groupView, scriptRequest } from './test-views.js';

function groupScript(): ScriptRequest {
  const req = scriptRequest(20);
  const cleo = { seat: 'C', profile: { name: 'Cleo Park' }, goal: 'Cleo wants the kitchen quiet too', hints: [], task: null, partners: [] };
  return { ...req, background: { ...req.background, scenario: { ...req.background.scenario, seats: ['A', 'B', 'C'] }, seats: [...req.background.seats, cleo] } };
}

describe('prompts for groups', () => {
  it('lists names as a sentence does', () => {
    expect(listNames(['A'])).toBe('A');
    expect(listNames(['A', 'B'])).toBe('A and B');
    expect(listNames(['A', 'B', 'C'])).toBe('A, B and C');
  });

  it('parley: a Participants line in turn order, each partner goal unknown in agents mode, leave worded for a group', () => {
    const v = agentValues(groupView(), { v: 1, id: 'r', type: 'turn.request', turn: 0, actions: ['speak', 'leave'], deadlineMs: 1000 });
    expect(v.partners).toContain('Participants, in turn order: Alice Chen (you), Bob Lee and Cleo Park.');
    expect(v.partners).toContain('until all but one participant have left');
    expect(v.partner_goals).toContain("Bob Lee's goal is unknown to you.");
    expect(v.partner_goals).toContain("Cleo Park's goal is unknown to you.");
    expect(v.action_guide).toContain('you take no more turns');
    // Two seats: no group lines, the leave wording as before.
    const pair = agentValues(aliceView(), { v: 1, id: 'r', type: 'turn.request', turn: 0, actions: ['leave'], deadlineMs: 1000 });
    expect(pair.partners).not.toContain('Participants');
    expect(pair.action_guide).toBe('- "leave": leave the conversation (it ends)');
  });

  it('paper: "Participants: A, B and C", an Unknown goal per partner, and the group leave rule; two seats unchanged', () => {
    const ctx = agentContext(groupView('agents', { name: 'paper', backgrounds: 'code', scriptFormat: 'text' }));
    expect(ctx).toContain('Participants: Alice Chen, Bob Lee and Cleo Park');
    expect(ctx).toContain("Bob Lee's goal: Unknown");
    expect(ctx).toContain("Cleo Park's goal: Unknown");
    expect(ctx).toContain('until all but one participant have left');
    const pair = agentContext({ ...aliceView(), welcome: { ...aliceView().welcome, protocol: { name: 'paper', backgrounds: 'code', scriptFormat: 'text' } } });
    expect(pair).toContain('Participants: Alice Chen and Bob Lee');
    expect(pair).not.toContain('all but one');
  });

  it('script mode for three: one writer, told of three characters, and a parser that reads three names', () => {
    const req = groupScript();
    expect(scriptContext(req)).toContain('Participants: Alice Chen, Bob Lee and Cleo Park');
    expect(paperScriptValues(req).how_many).toBe('three');
    expect(paperScriptValues(scriptRequest(20)).how_many).toBe('two');
    const r = parseScriptText(['Turn #0', 'Alice Chen said: "Quiet, please."', 'Turn #1', 'Bob Lee said: "Party!"', 'Turn #2', 'Cleo said: "I side with Alice."', 'Turn #3', 'Bob Lee left the conversation'].join('\n'), req);
    expect(r.ok && r.value.map((t) => t.seat)).toEqual(['A', 'B', 'C', 'B']);
  });
});
