import { afterEach, describe, expect, it } from 'vitest';
import { estimateCost } from '../../llm/cost.js';
import type { EpisodeRecord } from '../../protocol/index.js';
import { ProgressReporter } from './progress-reporter.js';

const usage = { prompt: 1_000, completion: 200, cached: 0 };
const rec = (id: string, o: Partial<EpisodeRecord> = {}): EpisodeRecord => ({
  episodeId: id, runId: 'r', scenarioId: `sc-${id}`, pairId: 'p', repeat: 0, mode: 'agents', seats: [],
  turns: [
    { turn: 0, seat: 'A', action: { type: 'speak', argument: 'hi' }, atMs: 1, provider: 'openai', model: 'gpt-3.5-turbo', usage },
    { turn: 1, seat: 'B', action: { type: 'speak', argument: 'hello' }, atMs: 2, provider: 'mistral', model: 'no-such-model', usage },
  ],
  termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: '2026-01-01T00:00:00Z', durationMs: 1_500, ...o,
});

/** The priced part of two episodes (the shipped table prices gpt-3.5-turbo, not the made-up Mistral model). */
const usd = `~$${(2 * estimateCost('openai', 'gpt-3.5-turbo', usage)!).toFixed(4)} (+ unpriced mistral:no-such-model)`;

describe('progress reporter', () => {
  const reporters: ProgressReporter[] = [];
  afterEach(() => reporters.splice(0).forEach((r) => r.close()));

  it('plain output (not a TTY): one line per episode, and summary lines with done/total, failures, tokens, cost, rate and ETA', () => {
    let now = 0;
    const lines: string[] = [];
    const p = new ProgressReporter({ total: 10, alreadyDone: 2, log: (l) => lines.push(l), now: () => now, intervalMs: 60_000 });
    reporters.push(p);
    now = 30_000;
    p.episode(rec('e1'));
    now = 60_000;
    p.episode(rec('e2', { status: 'failed', errors: [{ code: 'seat/disconnected', message: 'gone' }], recoveries: [{ seat: 'A', lostPid: 7, reason: 'x', turn: 1, atMs: 5 }] }));
    expect(lines[0]).toMatch(/^\[ 3\/10\] ok\s+agents\s+sc-e1 max_turns 2 turns 1\.5s$/);
    expect(lines[1]).toMatch(/^\[ 4\/10\] failed .* — seat\/disconnected: gone$/);
    // 2 done in 60 s → 2 episodes/min; 6 left → 3 min.
    const summary = p.summary();
    expect(summary).toBe(`progress 4/10 (40%) · 1 failed · 1 recovered · 4.8k tokens · ${usd} · 2.0 episodes/min · ETA 3m00s`);
    p.close();
    expect(lines.at(-1)).toBe(summary);
  });

  it('on a TTY: one line redrawn in place; failures and notices are printed above it', () => {
    const out: string[] = [];
    let now = 0;
    const p = new ProgressReporter({ total: 3, alreadyDone: 0, log: () => { throw new Error('no plain lines on a TTY'); }, tty: { write: (t) => void out.push(t), columns: () => 200 }, now: () => now });
    reporters.push(p);
    now = 60_000;
    p.episode(rec('e1'));
    p.notice('agent process 42 exited; seat re-established');
    p.episode(rec('e2', { status: 'failed' }));
    p.close();
    const text = out.join('');
    // Every redraw starts by clearing the line; ok episodes only update the status line.
    expect(out.every((t) => t.startsWith('\r\x1b[2K'))).toBe(true);
    expect(text).not.toContain('sc-e1');
    expect(text).toContain('\r\x1b[2Kagent process 42 exited; seat re-established\n');
    expect(text).toMatch(/\r\x1b\[2K\[2\/3\] failed .*sc-e2.*\n/);
    expect(text.slice(text.lastIndexOf('\r'))).toBe(`\r\x1b[2Kprogress 2/3 (66%) · 1 failed · 0 recovered · 4.8k tokens · ${usd} · 2.0 episodes/min · ETA 30s\n`);
  });

  it('truncates the status line to the terminal width', () => {
    const out: string[] = [];
    const p = new ProgressReporter({ total: 3, alreadyDone: 0, log: () => {}, tty: { write: (t) => void out.push(t), columns: () => 30 } });
    reporters.push(p);
    expect(out[0]!.replace('\r\x1b[2K', '')).toHaveLength(29);
    expect(out[0]!.endsWith('…')).toBe(true);
  });
});
