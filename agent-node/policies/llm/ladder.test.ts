import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../protocol/index.js';
import type { ChatRequest, ChatResponse, LlmClient } from '../../../llm/index.js';
import { askWithRepair, newTally, type ReformatRoute } from './ladder.js';
import { parseAction } from './parse-action.js';

/** An in-memory client answering from a list of replies, keeping what it was sent. */
class ListClient implements LlmClient {
  readonly provider = 'fake';
  readonly requests: ChatRequest[] = [];
  constructor(readonly model: string, private readonly replies: string[]) {}
  async chat(req: ChatRequest): Promise<ChatResponse> {
    this.requests.push(req);
    const content = this.replies.shift();
    if (content === undefined) throw new Error(`${this.model}: no reply left`);
    return { content, usage: { prompt: 10, completion: 5, cached: 0 }, model: this.model, latencyMs: 1, retries: 0 };
  }
}

const ask: ChatRequest = { messages: [{ role: 'user', content: 'Your move, as JSON.' }] };
const parse = (c: string) => parseAction(c, ['speak', 'none', 'leave']);
const parleyMessages = (problem: string) => [{ role: 'user' as const, content: `Could not use it: ${problem}` }];

describe('askWithRepair: the one reformat request', () => {
  it('Parley\'s way: the same client, the conversation continued with the reply and the problem', async () => {
    const client = new ListClient('seat', ['just prose', '{"action_type": "speak", "argument": "hi"}']);
    const tally = newTally();
    const r = await askWithRepair(client, ask, parse, parleyMessages, tally);
    expect(r).toEqual({ ok: true, value: { type: 'speak', argument: 'hi' } });
    expect(client.requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(tally).toMatchObject({ reformat: 1, calls: 2, usage: { prompt: 20, completion: 10 } });
  });

  it('a route sends it to another client in its own shape, once; still unreadable → policy/unparsable naming both replies', async () => {
    const seat = new ListClient('seat', ['just prose']);
    const fixer = new ListClient('fixer', ['still prose']);
    const route: ReformatRoute = { client: fixer, request: (bad) => ({ messages: [{ role: 'user', content: `Rewrite as JSON: ${bad}` }] }) };
    const tally = newTally();
    const r = await askWithRepair(seat, ask, parse, parleyMessages, tally, undefined, route);
    expect(r).toMatchObject({ ok: false, error: { code: ErrorCode.PolicyUnparsable, message: expect.stringMatching(/"just prose".*"still prose"/) } });
    expect(seat.requests).toHaveLength(1);
    expect(fixer.requests).toEqual([{ messages: [{ role: 'user', content: 'Rewrite as JSON: just prose' }] }]);
    expect(tally).toMatchObject({ reformat: 1, calls: 2, usage: { prompt: 20 } });
  });

  it('a readable first reply never touches the route', async () => {
    const fixer = new ListClient('fixer', []);
    const r = await askWithRepair(new ListClient('seat', ['{"action_type": "none", "argument": ""}']), ask, parse, parleyMessages, newTally(), undefined, { client: fixer, request: () => ask });
    expect(r.ok).toBe(true);
    expect(fixer.requests).toHaveLength(0);
  });
});
