import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { tempDir } from './helpers/processes.js';
import { readEpisodes } from './llm-run-helpers.js';

/** Issue 16, contract 1: `parley show` over the demo run, frame by frame for one seat, and the report's transcript links. */
describe('parley show and transcript pages over the demo run', () => {
  const dir = tempDir('show-demo');
  const run = async (args: string[]) => {
    const p = await parleyInProcess(args);
    return { code: p.code, out: p.stdout.join('\n'), err: p.stderr.join('\n') };
  };

  beforeAll(async () => {
    const demo = await run(['demo', '--out', dir.path, '--concurrency', '2']);
    expect(demo.code, demo.err).toBe(0);
  });
  afterAll(() => dir.remove());

  it('prints every episode as a transcript', async () => {
    const records = readEpisodes(dir.path);
    expect(records.length).toBe(60);
    const r = await run(['show', dir.path]);
    expect(r.code, r.err).toBe(0);
    const blocks = r.out.split(/^=== /m).slice(1);
    expect(blocks.map((b) => b.split('\n')[0])).toEqual(records.map((e) => e.episodeId));
    for (const [i, e] of records.entries()) {
      const b = blocks[i]!;
      expect(b).toContain(`mode ${e.mode}`);
      expect(b).toMatch(new RegExp(`^end: ${e.termination.reason}`, 'm'));
      expect(b).toMatch(/^outcome: /m);
      for (const t of e.turns) expect(b).toContain(`#${t.turn} ${e.seats.find((s) => s.seat === t.seat)!.character}`);
    }
  });

  it('--seat prints the frames the seat received, in order', async () => {
    const e = readEpisodes(dir.path).find((x) => x.mode === 'agents')!;
    const ledger = readFileSync(join(dir.path, 'ledgers', e.episodeId, 'agent1.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string });
    const r = await run(['show', dir.path, e.episodeId, '--seat', 'agent1']);
    expect(r.code, r.err).toBe(0);
    const frames = [...r.out.matchAll(/^\[(\d+)\] (\S+)/gm)].map((m) => [Number(m[1]), m[2]]);
    expect(frames).toEqual(ledger.map((f, i) => [i + 1, f.type]));
    expect(frames[0]![1]).toBe('seat.welcome');
    // The end score the seat was sent (its task's verdict) is shown with the end.
    const end = ledger.at(-1) as { type: string; score?: unknown };
    expect(end.score).toBeDefined();
    expect(r.out).toContain(`score ${JSON.stringify(end.score)}`);
  });

  it('report.html links every episode to its transcript page', async () => {
    const r = await run(['report', dir.path]);
    expect(r.code, r.err).toBe(0);
    const html = readFileSync(join(dir.path, 'report.html'), 'utf8');
    for (const e of readEpisodes(dir.path)) {
      expect(html).toContain(`href="transcripts/${e.episodeId}.html"`);
      expect(readFileSync(join(dir.path, 'transcripts', `${e.episodeId}.html`), 'utf8')).toContain(e.episodeId);
    }
  });
});
