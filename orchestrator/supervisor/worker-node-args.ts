import { spawnSync } from 'node:child_process';

/** The variable with extra node flags for agent processes (profiling, heap limits). */
export const WORKER_NODE_ARGS = 'PARLEY_WORKER_NODE_ARGS';

/** Its flags, in order; none when unset or blank. */
export function workerNodeArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  return env[WORKER_NODE_ARGS]?.split(/\s+/).filter(Boolean) ?? [];
}

/**
 * Throws, naming the variable and node's own complaint, when node refuses one of its flags. Why up front: the
 * flags are read where an agent pool starts, so a typo cost a run its directory and ~10 s of agent restarts
 * before it ended with exit 1. node parses every option before `--version` answers, and `--version` runs no
 * script and no profiler or inspector the flags may ask for: a check without side effects (~40 ms, only when
 * the variable is set). What node can only find when it runs (a `--require` of a missing file) still shows there.
 */
export function checkWorkerNodeArgs(env: NodeJS.ProcessEnv = process.env): void {
  const args = workerNodeArgs(env);
  if (args.length === 0) return;
  const { NODE_OPTIONS: _ignored, ...rest } = env;
  const r = spawnSync(process.execPath, [...args, '--version'], { stdio: ['ignore', 'ignore', 'pipe'], env: rest, timeout: 10_000 });
  if (r.status === 0) return;
  // node's first line names the flag ("<node's path>: bad option: --x"; V8's: "Error: illegal value for flag ...").
  const said = String(r.stderr ?? '').split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  throw new Error(`${WORKER_NODE_ARGS}: node refuses these flags (${said.slice(0, 200) || `exit ${String(r.status ?? r.signal)}`})`);
}
