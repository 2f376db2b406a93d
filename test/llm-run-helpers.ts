import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from '../protocol/index.js';
import { parley } from './helpers/processes.js';

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

/** Runs `parley <args>` to completion as a child process (killed after `timeoutMs`). */
export async function parleyCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliRun> {
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

/** Runs `parley run …` to completion (killed after `timeoutMs`). */
export function parleyRun(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliRun> {
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
