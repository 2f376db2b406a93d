import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directiveFor, matches, needsOf, shellBlocks, type ShellBlock } from '../../testkit/readme-blocks.js';
import { chainsOf, shardsOf } from '../../testkit/readme-chains.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { REPO } from '../../testkit/processes.js';
import { cleanEnv } from '../llm-run-helpers.js';
import { childCpuSeconds, ENV_PLACEHOLDERS, readmeFiles, ReadmeRunner, readText } from './runner.js';
import { linkedEntries, makeSandbox, seedSotopiaCache, untrackedLeftovers, type Sandbox } from './sandbox.js';
import { SHORT_EPISODE_MOVES } from '../../simulation/index.js';
import { cocoaData, sotopiaData, type ReferenceData } from '../helpers/reference-data.js';

/**
 * Issue 37: the README runs. Every shell block of README.md and docs/*.md is executed in a sandbox that
 * looks like a fresh clone (test/readme/sandbox.ts), against the fake OpenAI/Mistral-compatible server
 * (keys and base URLs in the environment, as a reader exports them). A command the file marks
 * `# fails: TEXT` must fail printing TEXT. Commands a `<!-- readme-test: skip … -->` directive keeps from
 * running are listed as skipped tests, each with its reason. At the end, nothing the commands left in the
 * sandbox may be missing from .gitignore.
 *
 * Issue 44: the blocks are split in SHARDS test files (readme-run-N.test.ts), each with its own sandbox and
 * fake server, so that Vitest's workers share them (one file took ~4.5 minutes, the suite's longest). A
 * block stays in one shard with every earlier block it may depend on (testkit/readme-chains.ts: a run
 * directory or file both name, a placeholder, shell state), and each shard runs its blocks in the files'
 * order: a shard's run is the serial run with the other shards' independent blocks left out. The chains
 * are spread by each command's measured cost (testkit/readme-weights.ts).
 *
 * Three shards, not four: the chain of `runs/r1` (README.md's r1, gpt-vs-mixtral and script runs and every
 * command that reads them, ~40 % of the test's time) is one shard whatever the count, so a fourth file would
 * only split the other two shards' work (same CPU) without shortening the slowest one, which starts
 * first beside the paper-scale run (test/setup/sequencer.ts).
 */
export const SHARDS = 3;

const data: Record<string, ReferenceData> = { sotopia: sotopiaData(), cocoa: cocoaData() };
const blocks = readmeFiles(REPO).flatMap((f) => shellBlocks(f, readText(REPO, f)));

/** The README test's blocks of shard `index` (1-based) of SHARDS, in the files' order. */
function shardBlocks(index: number): ShellBlock[] {
  // The variables the runner fills `<your-openai-key>` from are set in the test's environment (the fake
  // server's keys): an `export` of them changes nothing (testkit/readme-chains.ts).
  const env = Object.fromEntries(Object.values(ENV_PLACEHOLDERS).map((v) => [v, `<${v}>`]));
  const chains = chainsOf(blocks, { repo: REPO, linked: linkedEntries(), env, envPlaceholders: ENV_PLACEHOLDERS });
  const mine = new Set(shardsOf(chains, SHARDS)[index - 1]!.flat());
  return blocks.filter((b) => mine.has(b));
}

export function describeReadmeShard(index: number): void {
  const mine = shardBlocks(index);
  let server: FakeLlmServer;
  let sandbox: Sandbox;
  let runner: ReadmeRunner;
  const started = Date.now();
  const cpuBefore = childCpuSeconds();

  describe(`README.md and docs/*.md shell blocks, run in order (shard ${index} of ${SHARDS})`, () => {
    beforeAll(async () => {
      // The fake's replies shape only how long the commands take, never what the test checks (each command
      // runs as written and must exit as the README says):
      // - Seats leave at turn SHORT_EPISODE_MOVES (turns count from 0, so an episode has one move more), not
      //   the fake's default 4: under the paper protocol an episode of SHORT_EPISODE_MOVES moves or fewer is
      //   re-drawn (first-valid), so at 4 the README's paper run with LLM seats re-drew every episode to the
      //   draw limit, a fresh agent pool a round. One move past the rule, no later: every LLM turn is an
      //   agent process's request.
      // - A batch completes on its first status read: `--batch-poll 5` made `eval --batch` and
      //   `compare --batch` each sleep one 5 s interval before the read that found it done (15 s of the
      //   README's batch block). Polling through in-progress states is tested in test/eval-batch.test.ts.
      server = await startFakeLlmServer({ default: { kind: 'plausible', leaveFrom: SHORT_EPISODE_MOVES }, batchCompleteAfterPolls: 1 });
      sandbox = makeSandbox();
      const env = cleanEnv({
        ...server.env(),
        // Keys a reader exports for the README's other providers (examples/*.yaml name them).
        TOGETHER_API_KEY: 'sk-readme-test',
        HOME: `${sandbox.state}/home`,
        PARLEY_CACHE: `${sandbox.state}/cache`,
      });
      if (!data.sotopia!.skip) seedSotopiaCache(`${sandbox.state}/cache`, data.sotopia!.dir);
      // PARLEY_README_LOG=FILE: a line per command as it ends, to follow the run from another terminal.
      const logFile = process.env.PARLEY_README_LOG;
      runner = new ReadmeRunner(sandbox, env, undefined, logFile ? (l) => appendFileSync(logFile, `${l}\n`) : undefined);
    });
    afterAll(async () => {
      console.log(`readme-run shard ${index}/${SHARDS}: ${mine.length} blocks, ${mine.reduce((n, b) => n + b.commands.length, 0)} commands, ${runner?.notRun.length ?? 0} not run, ${((Date.now() - started) / 1000).toFixed(1)} s, ${(childCpuSeconds() - cpuBefore).toFixed(1)} CPU-s in its commands' processes`);
      await server?.close();
      sandbox?.remove();
    });

    if (index === 1) {
      it('finds the shell blocks of README.md and docs/*.md, and every directive names a command of its block', () => {
        expect(blocks.length).toBeGreaterThan(10);
        // A directive left behind when its command changed would silently stop applying: it must match.
        for (const b of blocks) {
          for (const d of b.directives) {
            if (d.kind === 'needs' || (d.kind === 'skip' && d.match === undefined)) continue;
            expect(b.commands.some((c) => matches(c.code, d.match!)), `${b.file}:${b.line}: the directive "${d.match}" matches no command of its block`).toBe(true);
          }
        }
      });
    }

    for (const block of mine) {
      const first = block.commands[0]?.source.split('\n')[0] ?? '(empty)';
      const missing = needsOf(block).map((d) => data[d]!).find((d) => d.skip);
      if (missing) {
        console.log(`skipped: ${block.file}:${block.line} (${missing.reason})`);
        it.skip(`${block.file}:${block.line} ${first} (skipped: ${missing.reason})`, () => {});
        continue;
      }
      it(`${block.file}:${block.line} ${first}`, async () => {
        await runner.runBlock(block);
      }, 600_000);
      for (const c of block.commands) {
        const d = directiveFor(block, c);
        if (d?.kind === 'skip') it.skip(`not run: ${block.file}:${c.line} ${c.code} (${d.reason})`, () => {});
      }
    }

    it('leaves nothing in the clone that .gitignore does not cover', () => {
      expect(untrackedLeftovers(sandbox)).toEqual([]);
    });
  });
}
