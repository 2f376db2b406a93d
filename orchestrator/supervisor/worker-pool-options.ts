import type { PolicyConfig } from '../../protocol/index.js';

/** What a WorkerPool (worker-pool.ts) is built with. */
export interface WorkerPoolOptions {
  /** Workers kept ready (spawned ahead so process start-up is off the per-episode path). */
  size: number;
  /** Seats one worker may host at once: 1 by default; more is the opt-in multiplexed mode. */
  seatsPerWorker?: number;
  /** Another agent process entry (tests); default: the package's declared `#agent-entry` (agent-entry.ts). */
  workerPath?: string;
  /**
   * Start workers from a pre-built bundle of a `.ts` entry (plain `node`, no tsx loader: faster start,
   * less memory; see worker-bundle.ts). Default true unless `PARLEY_WORKER_BUNDLE=0`; falls back to tsx.
   */
  bundle?: boolean;
  /**
   * Scheduling priority of the workers relative to the orchestrator (Unix nice increment; 0: same).
   * The orchestrator serialises every episode's turns, so on a machine with fewer cores than busy
   * processes it should not wait behind agent processes for CPU.
   */
  niceness?: number;
  /**
   * Workers starting at once (default: two per core). Start-up is mostly CPU (module loading), so
   * starting a hundred at once only makes each of them, and the episodes already playing, slower;
   * bounded, the first ones are ready early and episodes start on them while the rest start. Two per
   * core keeps the cores busy while a starting process waits on a file or an IPC round trip (on 2 loaded
   * cores, 28 processes: first ready after ~0.2–0.5 s instead of 3–4 s, whole pool in about the same time).
   */
  startParallelism?: number;
  /**
   * Workers that start alone, before any other (default: no first wave): the seats of one episode. On a machine with
   * as few cores as that, they get the cores to themselves and the first episode starts once they are
   * ready, instead of after `startParallelism` processes shared the cores; the rest start behind them.
   */
  firstWave?: number;
  /**
   * Workers the seats in flight need (without the spares `size` adds for lanes changing episodes): the others
   * spawn only once these are ready, so they do not share the cores with the last processes that lanes wait for.
   */
  needed?: number;
  /** Every seat this pool hosts is played by a bot: one-seat workers start with BOT_PROCESS_NODE_FLAGS (less memory). */
  botsOnly?: boolean;
  /** Past the first wave, a worker starts only for a seat that waited as long as a start takes (demand-growth.ts). */
  growOnDemand?: boolean;
  /**
   * Start bundled workers from the agent's start-up snapshot (worker-snapshot.ts: less CPU and memory per
   * process). Default true unless `PARLEY_WORKER_SNAPSHOT=0`; only for the package's own agent, and not with
   * node flags from the environment (PARLEY_WORKER_NODE_ARGS, NODE_OPTIONS: a blob loads only under the flags
   * it was built with; a bot-only pool's BOT_PROCESS_NODE_FLAGS have a blob of their own). Falls back to the
   * plain bundle.
   */
  snapshot?: boolean;
  /** Where the snapshot is built and kept instead of the package's bundle cache (tests that damage it). */
  snapshotCache?: string;
  /**
   * No policy this pool will ever host opens TLS (llm/tls-need.ts; only a caller that knows every policy
   * says so): workers start without NODE_EXTRA_CA_CERTS, which Node parses at every start. A policy that
   * may open TLS is then refused by `host()` rather than played without the certificates it may need.
   */
  tlsFree?: boolean;
  /** Policies each worker loads before it counts as ready (their modules and SDKs): off the episode path. */
  warm?: PolicyConfig[];
  /**
   * A starting worker that has used no CPU for this long is killed and counts as failed (default 30 s); one
   * that keeps using CPU is waited for, however busy the machine (start-watch.ts).
   */
  readyTimeoutMs?: number;
  /** A starting worker that has used this much CPU without saying `ready` is killed too (default 30 s: spinning). */
  readyCpuMs?: number;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /**
   * Called with each agent process's pid as it is forked, before it has run any of Node's start-up (tests
   * that stop or kill a process while it is surely still starting, without racing its start-up).
   */
  spawned?: (pid: number) => void;
}
