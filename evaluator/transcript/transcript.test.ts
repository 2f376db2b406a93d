import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRunDir } from '../run-dir.js';
import { writeReport } from '../report/report.js';
import { clScenario, episode, mfScenario, writeRunDir } from '../testing/fixtures.js';
import { buildTranscript, transcriptText } from './transcript.js';
import { frameText } from './ledger-text.js';
import { transcriptFile } from './transcript-pages.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('transcript', () => {
  it('names speakers, numbers turns, types actions and states the end and outcome', () => {
    const cl = clScenario();
    const r = episode({ scenario: cl, mode: 'agents', moves: [['a', 'speak', 'hi there'], ['b', 'action', 'offer $80'], ['a', null]], outcome: { kind: 'craigslist', deal: false, price: null, acceptedBy: null, success: false } });
    const text = transcriptText(buildTranscript(r, cl));
    const names = new Map(r.seats.map((s) => [s.seat, s.character]));
    expect(text).toContain(`#0 ${names.get('a')}: "hi there"`);
    expect(text).toContain(`#1 ${names.get('b')} [action] offer $80`);
    expect(text).toMatch(/#2 .* \[error\] /);
    expect(text).toMatch(/^end: .* after 3 turn\(s\)$/m);
    expect(text).toContain('outcome: no deal');
    expect(text).toContain('scores: not evaluated');
  });

  it("shows a rubric judgement's own dimensions, with rubric and dimension names made safe for a terminal", () => {
    const cl = clScenario();
    const judge = { spec: 'openai:gpt-4', visibility: 'full', temperature: 0, promptVersion: 'p', rubric: { name: 'warm\u001b[31mth', hash: 'f'.repeat(64), dimensions: [{ name: 'warmth', min: 0, max: 5 }] } };
    const seats = { a: { ok: true, scores: { warmth: { reasoning: 'r', score: 4 }, 'x\u001b]0;t\u0007y': { reasoning: 'r', score: 1 } } } };
    const r = episode({ scenario: cl, moves: [['a', 'speak', 'hi']], evaluation: { v: 1, judge: { judge, evaluatedAt: '2024-01-01T00:00:00Z', seats, calls: 1, usage: { prompt: 1, completion: 1 }, latencyMs: 1 } } });
    const text = transcriptText(buildTranscript(r, cl));
    expect(text).toMatch(/^scores: openai:gpt-4 \(full, rubric warmth\) .*: warmth 4, xy 1$/m);
    expect(text).not.toContain('\u001b');
  });

  it('prints turn frames on one line and other frames in full', () => {
    expect(frameText(2, JSON.stringify({ v: 1, id: 'o2', type: 'turn.event', turn: 0, seat: 'agent2', action: { type: 'speak', argument: 'hello' } }))).toBe('[2] turn.event    turn 0: agent2 [speak] "hello"');
    const welcome = frameText(1, JSON.stringify({ v: 1, id: 'o0', type: 'seat.welcome', self: { goal: 'buy cheap' } }));
    expect(welcome.split('\n')[0]).toBe('[1] seat.welcome');
    expect(welcome).toContain('"goal": "buy cheap"');
  });
});

describe('report transcript pages', () => {
  it('links every episode to its page, which shows the other modes of the same scenario and pair', async () => {
    const mf = mfScenario();
    const eps = [
      episode({ scenario: mf, mode: 'script', moves: [['a', 'speak', 'script line']] }),
      episode({ scenario: mf, mode: 'agents', moves: [['a', 'speak', 'agents line']] }),
    ];
    const dir = await writeRunDir([mf], eps);
    dirs.push(dir);
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await writeReport([loaded.run], { outDir: dir });
    const html = await readFile(path.join(dir, 'report.html'), 'utf8');
    for (const e of eps) {
      expect(html).toContain(`href="transcripts/${transcriptFile(e.episodeId)}"`);
      const page = await readFile(path.join(dir, 'transcripts', transcriptFile(e.episodeId)), 'utf8');
      expect(page).toContain('script line');
      expect(page).toContain('agents line');
      expect(page).toContain(`<section class="col current" id="${e.episodeId}">`);
    }
  });
});
