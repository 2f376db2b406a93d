import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Evaluation } from '../evaluator/evaluation.js';
import { requestedSeats, validReply } from '../evaluator/testing/fake-judge.js';
import { readEpisodes, readRunJson, RunPaths } from '../run-dir/index.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { parley, tempDir, within } from './helpers/processes.js';
import { CLI_GUARD_MS } from './setup/guards.js';
import { cleanEnv } from './llm-run-helpers.js';

/**
 * Issue 12, contract 3: `parley eval DIR --judge …` started while `parley run … --out DIR` is appending
 * ends with every record present and evaluated, none lost. Real processes, the real `openai` SDK in the
 * agents and in the judge, one fake server. The run's agents are held at the fake server once the
 * first record is on disk, until eval says it is waiting: so eval certainly starts mid-run, without a
 * timer deciding it.
 */
describe('parley eval next to a running parley run (issue 12, contract 3)', () => {
  const tmp = tempDir('eval-during-run');
  const out = join(tmp.path, 'run');
  const paths = new RunPaths(out);
  let server: FakeLlmServer;
  let releaseAgents!: () => void;
  const agentsReleased = new Promise<void>((r) => (releaseAgents = r));
  const recordsOnDisk = () => {
    try {
      return readFileSync(paths.episodesJsonl, 'utf8').split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  const isJudge = (req: ReceivedRequest) => req.body.model === 'gpt-4';

  beforeAll(async () => {
    server = await startFakeLlmServer({
      default: async (req) => {
        if (isJudge(req)) {
          const schema = req.body.response_format?.json_schema?.schema ?? {};
          const deal = (schema['properties'] as Record<string, unknown> | undefined)?.['deal'] ? { deal_reached: false, price: null } : undefined;
          return reply.json(validReply(requestedSeats({ json: { schema } }), deal ? { deal } : {}));
        }
        if (recordsOnDisk() > 0) await agentsReleased;
        return reply.plausible();
      },
    });
  });
  afterAll(async () => {
    releaseAgents();
    await server.close();
    tmp.remove();
  });

  it('eval waits for the run, naming it, then judges every record; nothing is lost', async () => {
    const run = parley(['run', '--scenarios', 'builtin', '--modes', 'agents', '--agent1', 'openai:fake-agent', '--agent2', 'openai:fake-agent', '--concurrency', '1', '--max-turns', '2', '--limit', '2', '--out', out], { env: cleanEnv(server.env()) });
    let evaluate: ReturnType<typeof parley> | undefined;
    try {
      // The run is appending: one record is on disk, the next episode is under way.
      await vi.waitFor(() => expect(recordsOnDisk()).toBeGreaterThan(0), { timeout: 60_000, interval: 50 });
      evaluate = parley(['eval', out, '--judge', 'openai:gpt-4'], { env: cleanEnv(server.env()) });
      const [, pid] = await within(evaluate.line(/waiting for parley run \(pid (\d+)/), 30_000, 'eval says it waits for the run', [run, evaluate]);
      expect(Number(pid)).toBe(run.child.pid);
      releaseAgents();
      const [runCode, evalCode] = await within(Promise.all([run.exited, evaluate.exited]), CLI_GUARD_MS, 'run and eval end', [run, evaluate]);
      expect(runCode, run.stderr.join('\n')).toBe(0);
      expect(evalCode, evaluate.stderr.join('\n')).toBe(0);
    } finally {
      run.kill();
      evaluate?.kill();
    }

    // Every planned record is present, once, and evaluated by the judge.
    const runJson = readRunJson(paths);
    expect(runJson.ok && runJson.run?.episodes.planned).toBe(2);
    const lines = readFileSync(paths.episodesJsonl, 'utf8').split('\n').filter(Boolean);
    const read = readEpisodes(paths);
    expect(lines).toHaveLength(2);
    expect(read).toMatchObject({ badLines: [], duplicates: 0, tornBytes: 0 });
    expect(new Set(read.rows.map((r) => r.record.episodeId)).size).toBe(2);
    for (const { record } of read.rows) {
      expect(record.status).toBe('ok');
      const evaluation = Evaluation.parse(record.evaluation);
      const seats = Object.values(evaluation.judge!.seats);
      expect(seats).toHaveLength(2);
      for (const s of seats) expect(s.ok).toBe(true);
    }
    expect(evaluate!.stdout.join('\n')).toContain('evaluated 2 episodes: 4 seats scored, 0 evaluation errors');
    // The judge ran only once the run was over (it held the lock): no judge request before the last move.
    const lastMove = server.requests.findLastIndex((r) => !isJudge(r));
    const firstJudge = server.requests.findIndex(isJudge);
    expect(firstJudge).toBeGreaterThan(lastMove);
  });
});
