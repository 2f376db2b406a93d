import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { parleyInProcess } from './in-process-parley.js';
import { PARLEY_BIN, REPO } from '../../testkit/processes.js';

/** What `parley <args>` printed, as the raw text of its two streams, and how it exited. */
export interface ParleyOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `parley <args>` from the repository root to completion, with `env` over the test's environment,
 * and returns its output once both streams are closed (every byte it printed is in).
 */
export async function parleyOutput(args: string[], env: Record<string, string> = {}): Promise<ParleyOutput> {
  const child = spawn(process.execPath, [PARLEY_BIN, ...args], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * `parleyOutput` inside this test process (testkit/in-process-cli.ts): for a test of what a command prints or
 * writes, not of its process. Each collected line is given back with its newline.
 */
export async function parleyOutputInProcess(args: string[], env: Record<string, string> = {}): Promise<ParleyOutput> {
  const r = await parleyInProcess(args, { env: { ...process.env, ...env } });
  const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
  return { code: r.code, stdout: text(r.stdout), stderr: text(r.stderr) };
}
