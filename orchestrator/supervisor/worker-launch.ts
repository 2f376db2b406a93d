import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { switchEnv } from '../../disk/switch-env.js';
import { PACKAGE_ROOT_ENV, packageRoot } from '../../disk/package-root.js';
import { agentEntry, agentEnv } from './agent-entry.js';
import { bundledWorker } from './worker-bundle.js';
import { snapshotLaunch, type Launch } from './worker-snapshot.js';

/** tsx's loader as an absolute URL (`--import tsx` would resolve against the cwd). */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** What a pool's launch is chosen from (its options, WorkerPoolOptions). */
export interface LaunchChoice {
  workerPath?: string;
  bundle?: boolean;
  snapshot?: boolean;
  env?: NodeJS.ProcessEnv;
  snapshotCache?: string;
  /** Node flags of the pool's workers beside their entry's (a snapshot is built with them). */
  v8Flags: readonly string[];
  log?: (line: string) => void;
}

/**
 * How a pool's agent processes are launched: from the start-up snapshot where it may be used, else the
 * agent bundle, else the sources under tsx (each step down says why in the log).
 */
export async function chooseLaunch(o: LaunchChoice): Promise<Launch> {
  const entry = o.workerPath ?? agentEntry();
  const tsx = { path: entry, execArgv: ['--import', TSX_LOADER] };
  // Read (and refused when neither 0 nor 1) before anything else: a refusal fails the pool's start (the CLI
  // refuses them earlier, cli/main.ts; in-process users of a pool meet it here).
  const bundleOn = switchEnv('PARLEY_WORKER_BUNDLE') ?? true;
  const snapshotOn = switchEnv('PARLEY_WORKER_SNAPSHOT') ?? true;
  if (!((o.bundle ?? bundleOn) && entry.endsWith('.ts'))) return entry.endsWith('.ts') ? tsx : { path: entry, execArgv: [] };
  try {
    const plain: Launch = { path: await bundledWorker(entry), execArgv: [], bundled: [] };
    return snapshotWanted(o, snapshotOn) ? await snapshotLaunch(plain, { flags: o.v8Flags, cache: o.snapshotCache }, o.log) : plain;
  } catch (err) {
    o.log?.(`agent processes start under tsx (no worker bundle: ${(err as Error).message})`);
    return tsx;
  }
}

function snapshotWanted(o: LaunchChoice, fromEnv: boolean): boolean {
  const env = agentEnv(o.env ?? process.env);
  return (
    (o.snapshot ?? fromEnv) &&
    o.workerPath === undefined &&
    !process.env.PARLEY_WORKER_NODE_ARGS?.trim() &&
    !env.NODE_OPTIONS?.trim() &&
    // Resolved: bin/parley.js declares the root with a trailing slash, and a plain string compare kept
    // every CLI run's agent processes off the snapshot.
    resolve(env[PACKAGE_ROOT_ENV] ?? '') === packageRoot()
  );
}
