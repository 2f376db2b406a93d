import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { TurnEvent, TurnRequest } from '../../protocol/index.js';
import type { SeatView } from '../policy.js';
import { friendLists, welcome } from './bot/testing/fixtures.js';
import { createHumanPolicy } from './human.js';

const request: TurnRequest = { v: 1, id: 'r', type: 'turn.request', turn: 0, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 60_000 };
const event = (turn: number, seat: string, argument: string): TurnEvent => ({ v: 1, id: `e${turn}`, type: 'turn.event', turn, seat, action: { type: 'action', argument } });

describe('human policy at the terminal (same information as the page)', () => {
  it('shows own card with the secret marked, the friend table and how to select; `select <name>` is a move; the end shows the outcome', async () => {
    const { a, answer } = friendLists(3);
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (c: Buffer) => (printed += c.toString('utf8')));
    const policy = createHumanPolicy({ input, output });
    const view: SeatView = { welcome: welcome({ episodeId: 'e1', seat: 'agent1', kind: 'mutual_friends', task: a, partnerName: 'Bea' }), peers: [], events: [] };
    const move = policy.act(view, request, new AbortController().signal);
    input.write(`select ${answer.Name}\n`);
    const result = await move;
    expect(result).toMatchObject({ ok: true, action: { type: 'action', argument: `select ${answer.Name}` } });
    expect(printed).toContain('SECRET (private): SECRET-agent1');
    expect(printed).toContain('GOAL-agent1');
    expect(printed).toContain(a.friends[0]!.Name!);
    expect(printed).toMatch(/select <name>/);
    expect(printed).toContain('Your partner [agent2] (stranger)');
    expect(printed).not.toContain('GOAL-agent2');

    policy.ended!({ ...view, events: [event(0, 'agent1', `select ${answer.Name}`), event(1, 'agent2', `select ${answer.Name}`)] }, 'task_end');
    expect(printed).toMatch(/episode over: task end/);
    expect(printed).toMatch(/Outcome: .*Success/);
    await policy.close!();
  });

  it('a whisper the person received is shown with its recipients (issue 39)', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (c: Buffer) => (printed += c.toString('utf8')));
    const policy = createHumanPolicy({ input, output });
    const whisper: TurnEvent = { v: 1, id: 'e0', type: 'turn.event', turn: 0, seat: 'agent2', action: { type: 'speak', argument: 'psst', to: ['agent1'] } };
    const view: SeatView = { welcome: welcome({ episodeId: 'e2', seat: 'agent1', kind: 'open', task: null }), peers: [], events: [whisper] };
    const move = policy.act(view, { ...request, turn: 1 }, new AbortController().signal);
    input.write('speak\nhello\n');
    await move;
    expect(printed).toContain('[0] agent2 [private to you]: "psst"');
    await policy.close!();
  });
});

