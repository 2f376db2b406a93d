import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestedSeats, validReply } from '../../evaluator/testing/fake-judge.js';
import { readEpisodes, RunPaths } from '../../run-dir/index.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../../testkit/fake-llm-server.js';
import { parley, tempDir, within } from '../helpers/processes.js';
import { CLI_GUARD_MS } from '../setup/guards.js';
import { cleanEnv } from '../llm-run-helpers.js';

/**
 * Issue 22, contract 3: writers started together on one run directory — two `parley eval`, and an
 * `eval` beside `parley export --format openai-chat` writing into the run — leave every record present
 * once and every line of every file parsing. Real processes and the real SDK against the fake server.
 */
describe('concurrent writers on one run directory (issue 22, contract 3)', () => {
  const tmp = tempDir('concurrent-writers');
  let server: FakeLlmServer;
  const isJudge = (req: ReceivedRequest) => req.body.model === 'gpt-4';

  beforeAll(async () => {
    server = await startFakeLlmServer({
      default: async (req) => {
        if (!isJudge(req)) return reply.plausible();
        const schema = req.body.response_format?.json_schema?.schema ?? {};
        const deal = (schema['properties'] as Record<string, unknown> | undefined)?.['deal'] ? { deal_reached: false, price: null } : undefined;
        return reply.json(validReply(requestedSeats({ json: { schema } }), deal ? { deal } : {}));
      },
    });
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });

  /** A finished two-episode LLM run in `tmp/<name>`. */
  async function freshRun(name: string): Promise<RunPaths> {
    const out = join(tmp.path, name);
    const run = parley(['run', '--scenarios', 'builtin', '--modes', 'agents', '--agent1', 'openai:fake-agent', '--agent2', 'openai:fake-agent', '--concurrency', '1', '--max-turns', '2', '--limit', '2', '--out', out], { env: cleanEnv(server.env()) });
    const code = await within(run.exited, CLI_GUARD_MS, 'the run ends', [run]);
    expect(code, run.stderr.join('\n')).toBe(0);
    return new RunPaths(out);
  }

  /** Every `.jsonl` and `.json` file below `dir`, each line (or the whole file) parsed. */
  function everyFileParses(dir: string): number {
    let files = 0;
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        files += everyFileParses(full);
        continue;
      }
      const text = readFileSync(full, 'utf8');
      if (name.endsWith('.jsonl')) {
        files++;
        for (const [i, line] of text.split('\n').entries()) if (line.trim()) expect(() => JSON.parse(line), `${full}:${i + 1}`).not.toThrow();
      } else if (name.endsWith('.json')) {
        files++;
        expect(() => JSON.parse(text), full).not.toThrow();
      }
    }
    return files;
  }

  /** Every record present once, evaluated, with no bad or torn line. */
  function recordsIntact(paths: RunPaths): void {
    const read = readEpisodes(paths);
    expect(read).toMatchObject({ badLines: [], duplicates: 0, tornBytes: 0 });
    expect(read.rows).toHaveLength(2);
    expect(new Set(read.rows.map((r) => r.record.episodeId)).size).toBe(2);
    for (const { record } of read.rows) expect(record.evaluation).toBeDefined();
  }

  it('two parley eval started together: both succeed, every record present once and every line parsing', async () => {
    const paths = await freshRun('two-evals');
    const evals = [0, 1].map(() => parley(['eval', paths.dir, '--judge', 'openai:gpt-4'], { env: cleanEnv(server.env()) }));
    const codes = await within(Promise.all(evals.map((e) => e.exited)), CLI_GUARD_MS, 'both evals end', evals);
    codes.forEach((c, i) => expect(c, evals[i]!.stderr.join('\n')).toBe(0));
    recordsIntact(paths);
    expect(everyFileParses(paths.dir)).toBeGreaterThan(3);
  });

  it('eval beside export --format openai-chat into the run: both succeed, nothing lost or torn', async () => {
    const paths = await freshRun('eval-and-export');
    const env = cleanEnv(server.env());
    const procs = [parley(['eval', paths.dir, '--judge', 'openai:gpt-4'], { env }), parley(['export', paths.dir, '--format', 'openai-chat'], { env })];
    const codes = await within(Promise.all(procs.map((p) => p.exited)), CLI_GUARD_MS, 'eval and export end', procs);
    codes.forEach((c, i) => expect(c, procs[i]!.stderr.join('\n')).toBe(0));
    recordsIntact(paths);
    const exported = readdirSync(paths.dir).filter((n) => n.startsWith('finetune.'));
    expect(exported.length).toBeGreaterThan(0);
    expect(everyFileParses(paths.dir)).toBeGreaterThan(3);
  });
});
