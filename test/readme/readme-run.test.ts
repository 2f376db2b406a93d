import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directiveFor, matches, needsOf, shellBlocks } from '../../testkit/readme-blocks.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { REPO } from '../../testkit/processes.js';
import { cleanEnv } from '../llm-run-helpers.js';
import { readmeFiles, ReadmeRunner, readText } from './runner.js';
import { makeSandbox, seedSotopiaCache, untrackedLeftovers, type Sandbox } from './sandbox.js';
import { cocoaData, sotopiaData, type ReferenceData } from '../helpers/reference-data.js';

/**
 * Issue 37: the README runs. Every shell block of README.md and docs/*.md is executed, in order, in a
 * sandbox that looks like a fresh clone (test/readme/sandbox.ts), against the fake OpenAI/Mistral-compatible
 * server (keys and base URLs in the environment, as a reader exports them). A command the file marks
 * `# fails: TEXT` must fail printing TEXT. Commands a `<!-- readme-test: skip … -->` directive keeps from
 * running are listed as skipped tests, each with its reason. At the end, nothing the commands left in the
 * sandbox may be missing from .gitignore.
 */
const data: Record<string, ReferenceData> = { sotopia: sotopiaData(), cocoa: cocoaData() };
const blocks = readmeFiles(REPO).flatMap((f) => shellBlocks(f, readText(REPO, f)));

describe('README.md and docs/*.md shell blocks, run in order', () => {
  let server: FakeLlmServer;
  let sandbox: Sandbox;
  let runner: ReadmeRunner;
  const started = Date.now();

  beforeAll(async () => {
    server = await startFakeLlmServer();
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
    console.log(`readme-run: ${blocks.length} blocks, ${blocks.reduce((n, b) => n + b.commands.length, 0)} commands, ${runner?.notRun.length ?? 0} not run, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await server?.close();
    sandbox?.remove();
  });

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

  for (const block of blocks) {
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
