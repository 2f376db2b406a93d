import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { cachedBundle, NODE_BUNDLE_OPTIONS } from '../disk/bundle-cache.js';
import { packageRoot } from '../disk/package-root.js';
import { agentEnv } from '../orchestrator/supervisor/agent-entry.js';
import { CaseChildren } from './case-children.js';
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
 * Runs a benchmark case in its own process (its file bundled: `caseLaunch`), as `parley run` would run:
 * the case's peak RSS is its own, and its agent processes are sampled from here, outside, so the
 * sampling never stalls the orchestrator being measured. The case prints `BENCH_RESULT <json>` last.
 */
export async function runCase<T>(file: string, args: unknown, env: NodeJS.ProcessEnv = process.env, timeoutMs = 300_000): Promise<CaseOutcome<T>> {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const start = await caseLaunch(path, env);
  // BENCH_CASE_NODE_ARGS: node flags for the case process (the orchestrator), e.g. `--cpu-prof`, which
  // NODE_OPTIONS refuses (PARLEY_WORKER_NODE_ARGS gives the agent processes theirs).
  const nodeArgs = process.env.BENCH_CASE_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, ...start.argv, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'], env: start.env });
  const pid = child.pid!;
  // The agent processes are the case's children (the esbuild service too, for a moment: left out).
  const kids = new CaseChildren(pid, children, safeCmdline);
  const sampler = new MemorySampler(() => kids.agents(), 200);
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

/** The case processes' entries, by output name: bundled together, so a fresh checkout builds them once. */
const CASE_FILES = ['engine-case', 'bot-process-case', 'latency-case'] as const;

/**
 * How a case process starts: from a cached esbuild bundle of the case files (disk/bundle-cache.js, as the
 * CLI and the agent processes are), with the package root declared as for a bundled agent process, as
 * `parley run` runs from the CLI's bundle; else from the sources under tsx. Under tsx, Node 20 ran the
 * loader's hooks for each of the orchestrator's ~300 files: ~1.5 s of CPU before a case started, in every
 * case process. The three cases are one build (shared chunks): ~3 s of CPU on a fresh checkout, once.
 */
async function caseLaunch(path: string, env: NodeJS.ProcessEnv): Promise<{ argv: string[]; env: NodeJS.ProcessEnv }> {
  const name = CASE_FILES.find((c) => path.endsWith(`/${c}.ts`));
  try {
    if (!name) throw new Error(`${path} is not a bundled case`);
    const here = dirname(fileURLToPath(import.meta.url));
    const main = await cachedBundle({
      root: packageRoot(),
      dir: join(dirname(dirname(createRequire(import.meta.url).resolve('esbuild/package.json'))), '.cache', 'parley', 'bench'),
      entryPoints: Object.fromEntries(CASE_FILES.map((c) => [c, join(here, `${c}.ts`)])),
      main: `${CASE_FILES[0]}.mjs`,
      options: { ...NODE_BUNDLE_OPTIONS },
    });
    return { argv: [join(dirname(main), `${name}.mjs`)], env: agentEnv(env) };
  } catch (err) {
    // Said, not silent: under tsx the case process pays ~1.5 s of CPU more at its start, on the machine measured.
    process.stderr.write(`bench: ${path} runs under tsx, not from its bundle (${(err as Error)?.message ?? String(err)})\n`);
    return { argv: ['--import', TSX_LOADER, path], env };
  }
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
