import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRun, readEpisodes, turnsById } from './llm-run-helpers.js';

/**
 * Issue 22, contract 4: a run whose cassette file ends in a torn line (the partial append a crash leaves)
 * can still be replayed with `--replay`, and the torn line is reported once.
 */
describe('--replay of a run with a torn cassette line (issue 22, contract 4)', () => {
  let server: FakeLlmServer;
  const r = tempDir('torn-r');
  const r2 = tempDir('torn-r2');
  let torn = '';

  beforeAll(async () => {
    server = await startFakeLlmServer();
    const run = await parleyRun(['--scenarios', 'builtin', '--concurrency', '1', '--max-turns', '4', '--modes', 'agents', '--limit', '2', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--out', r.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    await server.close();
    // A crash mid-append: the start of one more entry, with no newline, at the end of one seat's cassette.
    const cassettes = join(r.path, 'cassettes');
    const episode = readdirSync(cassettes).sort()[0]!;
    const seat = readdirSync(join(cassettes, episode)).sort()[0]!;
    torn = join(cassettes, episode, seat);
    appendFileSync(torn, '{"seq":99,"at":"2026-01-01T00:00:00.000Z","provider":"openai","req');
  });
  afterAll(async () => {
    await server.close();
    r.remove();
    r2.remove();
  });

  it('replays every episode with the same turns and reports the torn line once', async () => {
    const run = await parleyRun(['--replay', r.path, '--out', r2.path], cleanEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(turnsById(readEpisodes(r2.path))).toEqual(turnsById(readEpisodes(r.path)));
    const reports = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => l.includes('torn last line'));
    expect(reports, run.stderr).toHaveLength(1);
    expect(reports[0]).toContain(torn);
  });
});
