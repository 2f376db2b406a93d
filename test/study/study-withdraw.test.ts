import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parley, tempDir, within, type CliProcess } from '../helpers/processes.js';
import { CLI_GUARD_MS } from '../setup/guards.js';
import { StudyParticipant, writeMinimalStudy } from '../helpers/study-participant.js';

/** Every file below `dir`, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

async function startStudy(file: string, out: string): Promise<{ server: CliProcess; base: string }> {
  const server = parley(['study', file, '--out', out, '--port', '0']);
  const m = await within(server.line(/^study url (http:\/\/127\.0\.0\.1:\d+)\//), 60_000, 'study url', [server]);
  return { server, base: m[1]! };
}

async function stop(server: CliProcess): Promise<number | null> {
  server.child.kill('SIGINT');
  return within(server.exited, 30_000, 'study stops', [server]);
}

/**
 * Issue 41, Contract 3: `--withdraw PID` removes that participant's consent record, answers and survey;
 * their episode stays as a text-free stub; the removal is logged; the id cannot enrol again.
 */
describe('parley study --withdraw', () => {
  const dir = tempDir('study-withdraw');
  afterAll(() => dir.remove());
  const PHRASE = 'my-withdrawn-words-7f3a';

  it('leaves a text-free stub of their episode and nothing of their answers, and logs the removal', async () => {
    const file = writeMinimalStudy(dir.path, { waitSeconds: '1' });
    const out = join(dir.path, 'out');
    let { server, base } = await startStudy(file, out);
    const w = new StudyParticipant(base, 'W1THDRAW0000000000000000');
    const k = new StudyParticipant(base, 'KEEP00000000000000000000');
    try {
      // One after the other: each plays the bot (a pair's shared episode would go with either's withdrawal).
      expect((await within(w.complete('AI', { say: PHRASE }), 60_000, 'the first completes', [server])).state).toBe('done');
      expect((await within(k.complete('person', { say: 'staying-words' }), 60_000, 'the second completes', [server])).state).toBe('done');
    } finally {
      expect(await stop(server)).toBe(0);
    }
    const people = JSON.parse(readFileSync(join(out, 'study-participants.json'), 'utf8')) as Array<{ pid: string; episodes: Array<{ episodeId: string }> }>;
    const episode = people.find((p) => p.pid === w.pid)!.episodes[0]!.episodeId;
    expect(readFileSync(join(out, 'episodes.jsonl'), 'utf8')).toContain(PHRASE);

    const withdraw = parley(['study', file, '--out', out, '--withdraw', w.pid]);
    expect(await within(withdraw.exited, CLI_GUARD_MS, 'withdraw', [withdraw])).toBe(0);
    expect(withdraw.stdout.join('\n')).toMatch(/withdrawn: participant p[0-9a-f]+; 1 episode\(s\) kept as text-free stubs/);

    // Nothing of theirs anywhere in the directory: no id, no words, no survey answer, no ledger.
    for (const f of files(out)) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toContain(w.pid);
      expect(text, f).not.toContain(PHRASE);
    }
    expect(existsSync(join(out, 'ledgers', episode))).toBe(false);
    const stubs = readFileSync(join(out, 'study-episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const stub = stubs.find((s) => s.episodeId === episode)!;
    expect(stub.status).toBe('withdrawn');
    expect(stub.people).toEqual([]);
    expect(readFileSync(join(out, 'study-participants.csv'), 'utf8')).not.toContain('AI');
    expect(readFileSync(join(out, 'study-participants.csv'), 'utf8')).toContain(k.pid);
    expect(readFileSync(join(out, 'episodes.jsonl'), 'utf8')).toContain('staying-words');
    const log = readFileSync(join(out, 'study-withdrawals.jsonl'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!)).toMatchObject({ episodes: [episode] });

    // The same id cannot enrol again; withdrawing twice says so.
    ({ server, base } = await startStudy(file, out));
    try {
      expect((await new StudyParticipant(base, w.pid).consent()).status).toBe(403);
    } finally {
      expect(await stop(server)).toBe(0);
    }
    // `report` reads a study directory as any run directory.
    const report = parley(['report', out]);
    expect(await within(report.exited, CLI_GUARD_MS, 'report', [report])).toBe(0);
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    const again = parley(['study', file, '--out', out, '--withdraw', w.pid]);
    expect(await again.exited).toBe(1);
    expect(again.stderr.join('\n')).toContain('already withdrawn');
  });
});
