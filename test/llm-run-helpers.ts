import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from '../protocol/index.js';
import { readCassette, type CassetteEntry } from '../llm/cassette.js';
import { RunPaths } from '../run-dir/index.js';
import type { Scenario } from '../scenarios/model.js';
import { expect } from 'vitest';
import type { FakeLlmServer } from '../testkit/fake-llm-server.js';
import { parley, within } from './helpers/processes.js';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { CLI_GUARD_MS } from './setup/guards.js';

/**
 * Helpers for the issue-3 end-to-end tests: `node bin/parley.js run …` as a real child process,
 * pointed at the fake LLM server through the environment, as a user would.
 */

const PROVIDER_VARS = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'MISTRAL_API_KEY', 'MISTRAL_BASE_URL'];

/** The test process's environment without any provider settings, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of PROVIDER_VARS) delete env[k];
  return { ...env, ...extra };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `parley <args>` to completion as a child process (killed after `timeoutMs`: a hang guard, test/setup/guards.ts). */
export async function parleyCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = CLI_GUARD_MS): Promise<CliRun> {
  const cli = parley(args, { env });
  const timer = setTimeout(() => cli.kill(), timeoutMs);
  try {
    const code = await cli.exited;
    return { code, stdout: cli.stdout.join('\n'), stderr: cli.stderr.join('\n') };
  } finally {
    clearTimeout(timer);
    cli.kill();
  }
}

/**
 * `parleyCli` inside this test process (testkit/in-process-cli.ts), for a test that checks what a command prints
 * or writes, not how its process behaves: no process start, and the CLI's modules loaded once per test worker.
 * Same answer shape; past `timeoutMs` the test fails (a command in this process cannot be killed).
 */
export async function parleyCliInProcess(args: string[], env: NodeJS.ProcessEnv, timeoutMs = CLI_GUARD_MS): Promise<CliRun> {
  const r = await within(parleyInProcess(args, { env }), timeoutMs, `parley ${args.join(' ')} (in this process)`);
  return { code: r.code, stdout: r.stdout.join('\n'), stderr: r.stderr.join('\n') };
}

/** `parleyRun` inside this test process (see parleyCliInProcess); its agent pool is still real processes. */
export function parleyRunInProcess(args: string[], env: NodeJS.ProcessEnv, timeoutMs = CLI_GUARD_MS): Promise<CliRun> {
  return parleyCliInProcess(['run', ...args], env, timeoutMs);
}

/** Runs `parley run …` to completion (killed after `timeoutMs`). */
export function parleyRun(args: string[], env: NodeJS.ProcessEnv, timeoutMs = CLI_GUARD_MS): Promise<CliRun> {
  return parleyCli(['run', ...args], env, timeoutMs);
}

export function readEpisodes(dir: string): EpisodeRecord[] {
  const file = join(dir, 'episodes.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as EpisodeRecord);
}

export function readRunJson(dir: string): { stats: { retries: number; usage: Record<string, unknown>; repairs: { lenient: number; reformat: number }; cost: unknown } & Record<string, unknown> } & Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
}

/** Turns of every episode, keyed by episode id, as comparable JSON (seat, action, usage). */
export function turnsById(records: EpisodeRecord[]): Record<string, string> {
  return Object.fromEntries(
    records.map((r) => [r.episodeId, JSON.stringify(r.turns.map((t) => ({ seat: t.seat, action: t.action, error: t.error ?? null, usage: t.usage ?? null })))]),
  );
}

/** Flags every e2e run shares: small and sequential, so each test file stays fast on 2 cores. */
export const SMALL = ['--scenarios', 'builtin', '--concurrency', '1', '--max-turns', '8'];

/**
 * One paper-protocol agents episode (`--limit 1`, six turns at most) between two `openai:gpt-4-0613` seats,
 * over the scenarios in `scenarios`, against the fake server whose variables `env` holds (run in this process).
 */
export function paperGpt4Episode(scenarios: string, out: string, env: Record<string, string>, extra: string[] = []): Promise<CliRun> {
  return parleyRunInProcess([
    '--scenarios', scenarios, '--protocol', 'paper', '--selection', 'all', '--modes', 'agents', '--limit', '1', '--concurrency', '1', '--max-turns', '6',
    '--agent1', 'openai:gpt-4-0613', '--agent2', 'openai:gpt-4-0613', ...extra, '--out', out,
  ], cleanEnv(env), 90_000);
}

/** One recorded LLM call of a run, with the mode, seat (cassette name) and scenario of its episode. */
export interface RecordedCall {
  mode: string;
  seat: string;
  scenario: Scenario;
  entry: CassetteEntry;
}

/** Every LLM call a run recorded, read back from its cassettes, episode by episode. */
export function recordedCalls(out: string, records: EpisodeRecord[]): RecordedCall[] {
  const paths = new RunPaths(out);
  const scenarios = new Map(readFileSync(paths.scenariosJsonl, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Scenario).map((s) => [s.id, s]));
  const calls: RecordedCall[] = [];
  for (const r of records) {
    const dir = join(paths.cassettesDir, r.episodeId);
    for (const f of readdirSync(dir)) {
      for (const entry of readCassette(join(dir, f)) ?? []) calls.push({ mode: r.mode, seat: f.replace(/\.jsonl$/, ''), scenario: scenarios.get(r.scenarioId)!, entry });
    }
  }
  return calls;
}

/**
 * Starts `parley <argv>` (a `--batch` command) with the fake server holding its batches, waits until the
 * command reports its batch for `judge` in progress and nothing done, runs `whilePending` (checks of the
 * pending state), SIGKILLs it and sees it die so, then lets the server finish the batches.
 */
export async function killWhileBatchPending(server: FakeLlmServer, argv: string[], judge: string, whilePending: () => void = () => {}): Promise<void> {
  server.batches.hold();
  const first = parley(argv, { env: cleanEnv(server.env()) });
  try {
    const pending = new RegExp(`batch \\S+ \\(${judge}\\): in_progress · 0/\\d+ requests done · 0 failed`);
    await within(first.line(pending), 30_000, 'the batch in progress', [first]);
    whilePending();
  } finally {
    first.kill();
  }
  await first.exited;
  expect(first.child.signalCode).toBe('SIGKILL');
  server.batches.release();
}
