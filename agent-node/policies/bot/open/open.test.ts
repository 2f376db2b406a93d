import { describe, expect, it } from 'vitest';
import type { SeatView } from '../../../policy.js';
import { createBotPolicy } from '../index.js';
import { playEpisode, welcome } from '../testing/fixtures.js';

describe('open-ended chat bot', () => {
  it('talks politely, never quotes its goal or secret, and leaves after a few turns', async () => {
    for (const id of ['o1', 'o2', 'o3', 'o4', 'o5', 'o6']) {
      const played = await playEpisode({ episodeId: id, kind: 'open', tasks: [null, null], mode: 'agents', policies: [createBotPolicy('bot'), createBotPolicy('bot:open')] });
      expect(played.failures).toEqual([]);
      const last = played.events.at(-1)!;
      expect(last.action.type).toBe('leave');
      expect(played.events.length).toBeLessThanOrEqual(10);
      for (const e of played.events) {
        expect(e.action.argument).not.toMatch(/SECRET|GOAL/);
      }
      expect(played.events.filter((e) => e.action.type === 'speak').length).toBeGreaterThanOrEqual(3);
    }
  });

  it('greets the partner by the name its relationship shows', async () => {
    const view: SeatView = { welcome: welcome({ episodeId: 'o', seat: 'agent1', kind: 'open', task: null, partnerName: 'Mira Okafor' }), peers: [], events: [] };
    const r = await createBotPolicy('bot').act(view, { v: 1, id: 'r', type: 'turn.request', turn: 0, actions: ['speak', 'leave'], deadlineMs: 1000 }, new AbortController().signal);
    expect(r.ok && r.action.argument).toContain('Mira');
  });

  it('fails explicitly, not with a none, when a kind-specific bot sits in the wrong scenario', async () => {
    const view: SeatView = { welcome: welcome({ episodeId: 'o', seat: 'agent1', kind: 'open', task: null }), peers: [], events: [] };
    const r = await createBotPolicy('bot:craigslist', 'craigslist').act(view, { v: 1, id: 'r', type: 'turn.request', turn: 0, actions: ['none', 'speak'], deadlineMs: 1000 }, new AbortController().signal);
    expect(r).toMatchObject({ ok: false, error: { code: 'bot/wrong_kind' } });
  });
});
