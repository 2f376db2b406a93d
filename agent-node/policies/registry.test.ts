import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ErrorCode, type TurnRequest } from '../../protocol/index.js';
import type { SeatView } from '../policy.js';
import { welcome } from './bot/testing/fixtures.js';
import { createHumanPolicy } from './human.js';
import { createPolicy } from './registry.js';

describe('policy registry', () => {
  it('creates bots by spec', async () => {
    for (const spec of ['bot', 'bot:mutual_friends', 'bot:craigslist', 'bot:open', 'bot:script']) {
      const policy = await createPolicy({ spec, params: {} });
      expect(policy.spec).toBe(spec);
      expect(typeof policy.act).toBe('function');
      expect(typeof policy.writeScript).toBe('function');
    }
    expect((await createPolicy({ spec: 'human', params: {} })).spec).toBe('human');
  });

  it('rejects unknown specs with a code and the list of valid ones', async () => {
    await expect(createPolicy({ spec: 'bot:chess', params: {} })).rejects.toMatchObject({ code: 'policy/unknown_spec', message: expect.stringContaining('mutual_friends') });
    await expect(createPolicy({ spec: 'gpt4', params: {} })).rejects.toMatchObject({ code: 'policy/unknown_spec', message: expect.stringContaining('openai:<model>') });
    await expect(createPolicy({ spec: 'openai:', params: {} })).rejects.toMatchObject({ code: 'policy/unknown_spec' });
  });
});

describe('human policy', () => {
  const view: SeatView = {
    welcome: welcome({ episodeId: 'h', seat: 'agent1', kind: 'open', task: null }),
    peers: [],
    events: [{ v: 1, id: 'e0', type: 'turn.event', turn: 0, seat: 'agent2', action: { type: 'speak', argument: 'Hello there' } }],
  };
  const req: TurnRequest = { v: 1, id: 'r', type: 'turn.request', turn: 1, actions: ['speak', 'leave'], deadlineMs: 60_000 };

  it('shows the conversation and reads an action type and its text', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += d));
    const human = createHumanPolicy({ input, output });
    const pending = human.act(view, req, new AbortController().signal);
    input.write('dance\n');
    input.write('s\n');
    input.write('Nice to meet you\n');
    const result = await pending;
    expect(result).toMatchObject({ ok: true, action: { type: 'speak', argument: 'Nice to meet you' } });
    expect(shown).toContain('Your goal: GOAL-agent1');
    expect(shown).toContain('agent2: "Hello there"');
    expect(shown).toContain('Please type one of: speak, leave');
    await human.close!();
  });

  it('prints no control character of a partner and no line starting with text the partner forged', async () => {
    const forged = '\u001b[2J\u001b[31mred\u001b[0m\u0007 ring\rover\n(agent2\'s goal: steal the car)\n[3] agent1 left\u001b]0;title\u0007\u009b';
    const hostile: SeatView = {
      ...view,
      events: (['speak', 'non-verbal communication', 'action'] as const).map((type, i) => ({ v: 1, id: `e${i}`, type: 'turn.event', turn: i, seat: 'agent2', action: { type, argument: forged } })),
    };
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += d));
    const input = new PassThrough();
    const human = createHumanPolicy({ input, output });
    const pending = human.act(hostile, { ...req, turn: 3 }, new AbortController().signal);
    input.write('l\n');
    await pending;
    await human.close!();
    // Contract 4: none of the control characters …
    expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    // … and no line starts with the forged text: every line starts with its origin.
    const lines = shown.split('\n').filter((l) => l.length > 0);
    for (const line of lines) expect(line).toMatch(/^(parley|scene|you|agent2) +│ /);
    for (const line of lines) expect(line).not.toMatch(/^\s*(\(agent2's goal|\[3\] agent1 left|over)/);
    const partnerLines = lines.filter((l) => l.startsWith('agent2'));
    expect(partnerLines).toHaveLength(3);
    for (const l of partnerLines) expect(l).toContain("red ring ⏎ over ⏎ (agent2's goal: steal the car) ⏎ [3] agent1 left");
  });

  it('reports a missed deadline as a failure', async () => {
    const human = createHumanPolicy({ input: new PassThrough(), output: new PassThrough() });
    const ac = new AbortController();
    const pending = human.act(view, req, ac.signal);
    ac.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: ErrorCode.DeadlineMissed } });
    await human.close!();
  });
});
