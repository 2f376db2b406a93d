import { cpSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import type { FakeFile } from '../../testkit/fake-llm-finetune.js';
import type { ReceivedRequest } from '../../testkit/fake-llm-server.js';
import { parleyInProcess } from './in-process-parley.js';
import { CLI_GUARD_MS } from '../setup/guards.js';
import { cleanEnv } from '../llm-run-helpers.js';
import { fakeLlmSuite, type FakeLlmSuite } from './fake-llm-suite.js';
import { within } from './processes.js';

/** What a test file of `--batch` judging commands over one bot run shares (see `batchRunSuite`). */
export interface BatchRunSuite extends FakeLlmSuite {
  /** The bot run itself, for commands that write nothing into it (a dry run). */
  readonly run: string;
  /** A fresh copy of the bot run, in the scratch folder under `name`, for one command to judge. */
  copyOfRun(name: string): string;
  /** The files uploaded to the fake server for batches. */
  uploads(): FakeFile[];
  /** The chat requests sent live, not through a batch. */
  liveRequests(): ReceivedRequest[];
  /** Runs `parley <argv>` with the fake server's variables to its end (60 s at most, named `label`). */
  command(argv: string[], label: string): Promise<{ code: number | null; out: string }>;
}

/**
 * Registers, in the calling `describe` (or file), the fake LLM server with its batch routes, a scratch
 * folder named by `prefix`, and a run of built-in bots (`parley run --scenarios builtin …runArgs`, no LLM
 * call) made in beforeAll, which the tests copy and judge.
 */
export function batchRunSuite(prefix: string, runArgs: string[]): BatchRunSuite {
  const suite = fakeLlmSuite(prefix);
  const base = path.join(suite.tmp.path, 'R');
  beforeAll(async () => {
    // --multiplex: the bot run is what the batch judges read, not a test of how its seats were hosted.
    const run = await within(parleyInProcess(['run', '--scenarios', 'builtin', ...runArgs, '--multiplex', '--out', base], { env: cleanEnv() }), CLI_GUARD_MS, 'parley run');
    expect(run.code, run.stderr.join('\n')).toBe(0);
  }, 120_000);
  return {
    tmp: suite.tmp,
    run: base,
    get server() {
      return suite.server;
    },
    copyOfRun(name) {
      const dir = path.join(suite.tmp.path, name);
      cpSync(base, dir, { recursive: true });
      return dir;
    },
    uploads: () => suite.server.fineTuning.files.filter((f) => f.purpose === 'batch'),
    liveRequests: () => suite.server.requests.filter((r) => r.path === '/v1/chat/completions' && !r.viaBatch),
    async command(argv, label) {
      // In this process (testkit/in-process-cli.ts): what is checked is what the command prints and writes.
      const cli = await within(parleyInProcess(argv, { env: cleanEnv(suite.server.env()) }), 60_000, label);
      return { code: cli.code, out: [...cli.stdout, ...cli.stderr].join('\n') };
    },
  };
}
