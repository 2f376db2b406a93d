import { describe, expect, it } from 'vitest';
import type { Mode } from '../../protocol/index.js';
import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import { leakEffect, leakEffects } from './leak-effect.js';
import { leakSentence } from './leak-words.js';

let n = 0;
/** The fields the leak effect reads of one episode: mode, kind, status, goal score, success, first mention. */
function ep(mode: Mode, goal: number | null, opts: { kind?: EpisodeMetrics['kind']; status?: 'ok' | 'failed'; success?: boolean; first?: number | null; instance?: number } = {}): EpisodeMetrics {
  const kind = opts.kind ?? 'mutual_friends';
  const id = n++;
  return {
    episodeId: `e${id}`,
    // The instance it plays (the same in every run and mode): given, else its own.
    scenarioId: opts.instance === undefined ? `own-${id}` : `s${opts.instance}`,
    pairId: 'p',
    repeat: 0,
    mode,
    kind,
    status: opts.status ?? 'ok',
    success: opts.success ?? null,
    mutualFriends: kind === 'mutual_friends' ? { success: opts.success ?? false, successRule: 'paper', answer: 'Jane', firstMentionTurn: null, firstMentionPosition: opts.first ?? null, firstMentionSeat: null } : null,
    judge: goal === null ? null : { info: { spec: 'openai:gpt-4', view: 'paper' }, seats: { a: { ok: true, scores: { goal } }, b: { ok: true, scores: { goal } } } },
  } as unknown as EpisodeMetrics;
}
/** Episodes of one mode, the i-th value playing instance i. */
const goals = (mode: Mode, values: number[]) => values.map((v, i) => ep(mode, v, { instance: i }));

describe('leak effect (explained share of a mode\'s MutualFriends advantage)', () => {
  // Per instance the leaky advantage is 2, 3, 3, 4 and the corrected one 1, 2, 1, 0: neither is the same everywhere.
  const leaky = [...goals('script', [8, 9, 10, 9]), ...goals('agents', [6, 6, 7, 5])];
  const corrected = [...goals('script', [6, 8, 8, 6]), ...goals('agents', [5, 6, 7, 6])];

  it('computes both advantages, the drop and the share, with seeded bootstrap intervals around them', () => {
    const e = leakEffect(leaky, corrected, 'script', 'goal', 7);
    expect(e.leaky).toMatchObject({ value: 3, nMode: 4, nAgents: 4 });
    expect(e.corrected!.value).toBeCloseTo(1);
    expect(e.drop!.value).toBeCloseTo(2);
    expect(e.share!.value).toBeCloseTo(2 / 3);
    expect(e.note).toBeNull();
    for (const est of [e.leaky!, e.corrected!, e.drop!, e.share!]) {
      expect(est.lo!).toBeLessThan(est.value);
      expect(est.hi!).toBeGreaterThan(est.value);
    }
    expect(leakEffect(leaky, corrected, 'script', 'goal', 7)).toEqual(e);
    expect(leakEffect(leaky, corrected, 'script', 'goal', 8).share!.lo).not.toBe(e.share!.lo);
    expect(leakSentence(e)).toMatch(/with the leaked answer script mode scores above agents mode by 3\.00 \[\d\.\d\d, \d\.\d\d\] \(4 script, 4 agents episodes\), and without it by 1\.00 \[/);
    expect(leakSentence(e)).toMatch(/The leaked answer explains 67% \[-?\d+%, \d+%\] of the advantage\./);
  });

  it('reads a negative advantage as "below", never "above … by -3.60"', () => {
    const behind = [...goals('script', [3, 4, 3, 2]), ...goals('agents', [7, 7, 6, 7])];
    const e = leakEffect(behind, corrected, 'script', 'goal', 7);
    expect(e.leaky!.value).toBeCloseTo(-3.75);
    const text = leakSentence(e);
    expect(text).toMatch(/with the leaked answer script mode scores below agents mode by 3\.75 \[\d\.\d\d, \d\.\d\d\]/);
    expect(text).toMatch(/and without it script mode scores above agents mode by 1\.00/);
    expect(text).not.toMatch(/by -\d/);
  });

  it('says "not defined" when the leaky run has no advantage to explain', () => {
    const flat = [...goals('script', [6, 6, 7, 5]), ...goals('agents', [6, 7, 5, 6])];
    const e = leakEffect(flat, corrected, 'script', 'goal');
    expect(e.leaky!.value).toBeCloseTo(0);
    expect(e.share).toBeNull();
    expect(e.note).toBe('no_leaky_advantage');
    expect(leakSentence(e)).toContain('is not defined: no advantage in the leaky run');
  });

  it('gives no share interval when the leaky advantage itself is not clearly above 0', () => {
    const noisy = [...goals('script', [0, 10, 0, 10, 1]), ...goals('agents', [4, 4, 4, 4, 4])];
    const e = leakEffect(noisy, corrected, 'script', 'goal');
    expect(e.leaky!.value).toBeCloseTo(0.2);
    expect(e.note).toBe('unbounded');
    expect(e.share).toMatchObject({ lo: null, hi: null });
    expect(e.drop!.lo).not.toBeNull();
    expect(leakSentence(e)).toContain('with no interval: the leaky run\'s own advantage is not clearly above 0');
  });

  it('gives values without intervals when a mode has a single episode', () => {
    const e = leakEffect([ep('script', 9), ep('agents', 5)], [ep('script', 6), ep('agents', 5)], 'script', 'goal');
    expect(e.share).toEqual({ value: 0.75, lo: null, hi: null });
    expect(e.note).toBe('too_few');
    expect(leakSentence(e)).toContain('explains 75% of the advantage, with no interval: a mode has fewer than 2 episodes');
  });

  it('is not defined when a run has no episode of the mode', () => {
    const e = leakEffect(leaky, goals('agents', [5, 6]), 'script', 'goal');
    expect(e.corrected).toBeNull();
    expect(e.share).toBeNull();
    expect(leakSentence(e)).toContain('not defined: the corrected run has no MutualFriends episode with this metric in script mode');
    expect(leakSentence(leakEffect([], corrected, 'mindreaders', 'goal'))).toContain('not defined: the leaky run has no MutualFriends episode');
  });

  it('counts an earlier first mention as the advantage, and reads success as a rate', () => {
    const withFirst = (mode: Mode, firsts: number[]) => firsts.map((f, i) => ep(mode, null, { first: f, success: true, instance: i }));
    const l = [...withFirst('mindreaders', [0.1, 0.2, 0.1]), ...withFirst('agents', [0.5, 0.6, 0.4])];
    const c = [...withFirst('mindreaders', [0.4, 0.5, 0.3]), ...withFirst('agents', [0.5, 0.6, 0.4])];
    const first = leakEffect(l, c, 'mindreaders', 'firstMention');
    expect(first.leaky!.value).toBeCloseTo(0.5 - 0.4 / 3);
    expect(first.corrected!.value).toBeCloseTo(0.1);
    expect(leakSentence(first)).toContain('mindreaders mode names the shared friend earlier than agents mode by 0.37');
    const s = (mode: Mode, success: boolean, instance: number) => ep(mode, null, { success, instance });
    const succ = leakEffect([s('script', true, 0), s('script', true, 1), s('agents', false, 0), s('agents', true, 1)], [s('script', true, 0), s('script', false, 1), s('agents', false, 0), s('agents', true, 1)], 'script', 'success');
    expect(succ.leaky!.value).toBeCloseTo(0.5);
    expect(succ.corrected!.value).toBeCloseTo(0);
    expect(succ.share!.value).toBeCloseTo(1);
  });

  it('leaves out failed episodes and other tasks, and covers both leaked modes and three metrics', () => {
    const noise = [ep('script', 0, { status: 'failed' }), ep('script', 0, { kind: 'craigslist' }), ep('agents', 10, { kind: 'open' })];
    expect(leakEffect([...leaky, ...noise], corrected, 'script', 'goal', 7)).toEqual(leakEffect(leaky, corrected, 'script', 'goal', 7));
    expect(leakEffects(leaky, corrected).map((e) => `${e.mode}:${e.metric}`)).toEqual(['script:goal', 'script:success', 'script:firstMention', 'mindreaders:goal', 'mindreaders:success', 'mindreaders:firstMention']);
  });
});

describe('paired resampling (issue 42): instances, not the four groups, are resampled', () => {
  // Instances differ a lot (a base of 0, 3, 6, 9), the leaky script episode of an instance scores 2 above its
  // agents episode and the corrected one 1 above: every instance says the same, so the paired intervals are points.
  const base = [0, 3, 6, 9];
  const leaky = [...goals('script', base.map((b) => b + 2)), ...goals('agents', base)];
  const corrected = [...goals('script', base.map((b) => b + 1)), ...goals('agents', base)];

  it('gives the interval the shared instances warrant', () => {
    const e = leakEffect(leaky, corrected, 'script', 'goal', 3);
    expect([e.leaky!.value, e.leaky!.lo, e.leaky!.hi]).toEqual([2, 2, 2]);
    expect([e.drop!.value, e.drop!.lo, e.drop!.hi]).toEqual([1, 1, 1]);
    expect([e.share!.lo, e.share!.hi]).toEqual([0.5, 0.5]);
  });

  it('is wider when the same values play unrelated instances (what resampling the groups apart assumed)', () => {
    const shuffled = [...goals('script', base.map((b) => b + 2)), ...goals('agents', [...base].reverse())];
    const e = leakEffect(shuffled, corrected, 'script', 'goal', 3);
    expect(e.leaky!.value).toBe(2);
    expect(e.leaky!.hi! - e.leaky!.lo!).toBeGreaterThan(3);
  });

  it('matches instances across runs and modes by scenario, pair and repeat, whatever the order of the records', () => {
    const e = leakEffect([...leaky].reverse(), corrected, 'script', 'goal', 3);
    expect([e.leaky!.lo, e.leaky!.hi]).toEqual([2, 2]);
  });
});

describe('leak sentence direction', () => {
  it('says "raises" when closing the leak increases the advantage', () => {
    const l = [...goals('script', [7, 8, 7, 8]), ...goals('agents', [6, 7, 6, 7])];
    const c = [...goals('script', [9, 10, 9, 10]), ...goals('agents', [6, 7, 6, 7])];
    const e = leakEffect(l, c, 'script', 'goal');
    expect(e.share!.value).toBeCloseTo(-2);
    expect(leakSentence(e)).toMatch(/Closing the leak raises the advantage by 2\.00 \[[\d.]+, [\d.]+\]\. The leaked answer explains -200% \[/);
  });
});
