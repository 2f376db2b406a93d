import { readFileSync } from 'node:fs';
import { parley } from './helpers/processes.js';
import type { CliRun } from './llm-run-helpers.js';

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

/** One line of an export's `*.index.jsonl`: which example each training line is. */
export interface IndexLine {
  line: number;
  episodeId: string;
  scenarioId: string;
  mode: string;
  seat: string;
  turn: number;
}

export const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);

export type ChatLine = { messages: Array<{ role: string; content: string }> };
