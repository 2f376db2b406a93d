import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MemorySampler, processMemory } from './memory.js';

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const RESULT = 'BENCH_RESULT ';

/** Direct children of a process (Linux /proc). */
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export interface CaseOutcome<T> {
  result: T;
  /** Peak RSS of the case process (the orchestrator), kB. */
  orchestratorPeakKb: number;
  /** Memory of its child processes (the agent pool), sampled from outside. */
  agents: ReturnType<MemorySampler['stop']>;
}

/**
 * Runs a benchmark case in its own process (`tsx bench/<file> <json args>`), as `parley run` would run:
 * the case's peak RSS is its own, and its agent processes are sampled from here, outside, so the
 * sampling never stalls the orchestrator being measured. The case prints `BENCH_RESULT <json>` last.
 */
export async function runCase<T>(file: string, args: unknown, env: NodeJS.ProcessEnv = process.env, timeoutMs = 300_000): Promise<CaseOutcome<T>> {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const child = spawn(process.execPath, ['--import', TSX_LOADER, path, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const pid = child.pid!;
  // The agent processes are the case's children (the esbuild service too, for a moment: harmless).
  const sampler = new MemorySampler(() => children(pid).filter((c) => !/esbuild/.test(safeCmdline(c))), 200);
  sampler.start();
  let orchestratorPeakKb = 0;
  const selfTimer = setInterval(() => {
    orchestratorPeakKb = Math.max(orchestratorPeakKb, processMemory(pid)?.hwmKb ?? 0);
  }, 200);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  clearInterval(selfTimer);
  const agents = sampler.stop();
  const line = out.split('\n').find((l) => l.startsWith(RESULT));
  if (code !== 0 || !line) throw new Error(`bench case ${file} failed (exit ${code}):\n${out.slice(-2000)}`);
  const result = JSON.parse(line.slice(RESULT.length)) as T & { orchestratorPeakKb?: number };
  // The case reports its own VmHWM at the very end; the outside samples are a lower bound.
  return { result, orchestratorPeakKb: Math.max(orchestratorPeakKb, result.orchestratorPeakKb ?? 0), agents };
}

function safeCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Prints a case's result for `runCase` (call last in the case process). */
export function reportCase(result: Record<string, unknown>): void {
  const peak = processMemory('self')?.hwmKb ?? 0;
  process.stdout.write(`${RESULT}${JSON.stringify({ ...result, orchestratorPeakKb: peak })}\n`);
}

/** The JSON argument a case process was started with. */
export function caseArgs<T>(): T {
  return JSON.parse(process.argv[2] ?? '{}') as T;
}
