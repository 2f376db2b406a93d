import { ErrorCode, MODES, RESERVED_SEAT_IDS, type PolicyConfig } from '../protocol/index.js';
import { llmSpecForms, parseSpec } from '../llm/spec.js';
import type { EpisodeJob, RunSpec } from './jobs.js';

/**
 * What a worker's own configuration lets a job ask for. Redis schedules work; it grants nothing: a job may
 * name a provider base URL or a key variable only when the worker was started allowing it
 * (`parley worker --allow-endpoint URL --allow-key-env NAME`).
 */
export interface WorkerTrust {
  /** Base URLs a job's policy may name, normalised by `normaliseEndpoint`. */
  endpoints: readonly string[];
  /** Environment variable names a job's policy may name as its key variable. */
  keyEnvs: readonly string[];
}

/** A job (or run spec) refused by the worker: its code and why, never run. */
export type JobCheck = { ok: true } | { ok: false; code: typeof ErrorCode.BadJob; message: string };

/** `<slug>.<mode>.r<repeat>.<hash>`, the only episode id `planEpisodes` writes (one safe path segment). */
const EPISODE_ID = new RegExp(`^[A-Za-z0-9_-]{1,48}\\.(${MODES.join('|')})\\.r(\\d{1,6})\\.[0-9a-f]{12}$`);
/** Run keys are nanoid-like tokens chosen by the coordinator; they name Redis keys, never files. */
const RUN_KEY = /^[A-Za-z0-9_-]{1,200}$/;
/** Bot specs: `bot` or `bot:<name>` (the agent process refuses an unknown name with its own code). */
const BOT_SPEC = /^bot(:[a-z_]{1,40})?$/;
/** Fields naming a path on the worker's disk: the worker sets its own cassette directory, and none else is accepted. */
const PATH_FIELDS = ['cassetteDir', 'replayDir', 'promptDir'] as const;

/** The canonical form of an endpoint URL (`new URL` form, no trailing slash), or null when it is not http(s). */
export function normaliseEndpoint(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash) return null;
  return u.toString().replace(/\/+$/, '');
}

/** Checks one policy against the closed set a worker runs: bots and LLM providers, with allowed endpoints only. */
export function checkPolicy(p: PolicyConfig, trust: WorkerTrust, where: string): JobCheck {
  const bad = (message: string): JobCheck => ({ ok: false, code: ErrorCode.BadJob, message: `${where}: ${message}` });
  if (!BOT_SPEC.test(p.spec)) {
    let provider: string;
    try {
      provider = parseSpec(p.spec).provider;
    } catch {
      return bad(`policy spec ${JSON.stringify(p.spec.slice(0, 80))} is not one a worker runs (bot, bot:<name>, ${llmSpecForms()})`);
    }
    // A replay spec names a directory on the worker's disk: never from a job.
    if (provider === 'replay') return bad('replay policies do not run on queue workers');
  }
  for (const f of PATH_FIELDS) if (p[f] !== undefined) return bad(`policy field ${f} names a path; a job may not`);
  if (p.resume !== undefined) return bad('policy field resume is set by the worker, not a job');
  if (p.baseURL !== undefined) {
    const url = normaliseEndpoint(p.baseURL);
    if (url === null || !trust.endpoints.includes(url)) return bad(`base URL not allowed by this worker (start it with --allow-endpoint ${JSON.stringify(p.baseURL.slice(0, 200))})`);
  }
  if (p.apiKeyEnv !== undefined && !trust.keyEnvs.includes(p.apiKeyEnv)) {
    return bad(`key variable not allowed by this worker (start it with --allow-key-env ${JSON.stringify(p.apiKeyEnv.slice(0, 80))})`);
  }
  return { ok: true };
}

/** Checks a run spec's settings that reach agent processes (its policies), before any process is started for it. */
export function checkRunSpec(spec: RunSpec, trust: WorkerTrust): JobCheck {
  if (!RUN_KEY.test(spec.runKey)) return { ok: false, code: ErrorCode.BadJob, message: 'run spec: malformed run key' };
  for (const p of spec.policies) {
    const c = checkPolicy(p, trust, `run ${spec.runKey}`);
    if (!c.ok) return c;
  }
  return { ok: true };
}

/** Checks a job against the grammar the coordinator writes: episode id, run key, mode and repeat, policies. */
export function checkEpisodeJob(job: EpisodeJob, trust: WorkerTrust): JobCheck {
  const bad = (message: string): JobCheck => ({ ok: false, code: ErrorCode.BadJob, message });
  if (!RUN_KEY.test(job.runKey)) return bad('job: malformed run key');
  const m = EPISODE_ID.exec(job.episodeId);
  if (!m) return bad(`job: malformed episode id ${JSON.stringify(job.episodeId.slice(0, 120))}`);
  if (m[1] !== job.mode || Number(m[2]) !== job.repeat) return bad(`job ${job.episodeId}: mode or repeat disagree with its id`);
  for (const [seat, p] of Object.entries(job.policies)) {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(seat) || RESERVED_SEAT_IDS.has(seat)) return bad(`job ${job.episodeId}: malformed seat name`);
    const c = checkPolicy(p, trust, `job ${job.episodeId}, seat ${seat}`);
    if (!c.ok) return c;
  }
  return { ok: true };
}

/**
 * Checks that a job names a policy for every seat of its episode and for nothing else (`seats`: the
 * scenario's seat ids, or the script writer's in script mode): a job lacking one would hold a worker slot
 * until the seat's join deadline, and one naming more would start a process for no seat.
 */
export function checkJobSeats(job: EpisodeJob, seats: readonly string[]): JobCheck {
  const named = Object.keys(job.policies);
  const missing = seats.filter((s) => !Object.hasOwn(job.policies, s));
  const extra = named.filter((s) => !seats.includes(s));
  if (!missing.length && !extra.length) return { ok: true };
  const what = [missing.length ? `no policy for seat ${missing.slice(0, 4).join(', ')}` : '', extra.length ? `a policy for seat ${extra.slice(0, 4).map((s) => JSON.stringify(s.slice(0, 40))).join(', ')} the episode does not have` : ''].filter(Boolean).join(' and ');
  return { ok: false, code: ErrorCode.BadJob, message: `job ${job.episodeId}: ${what}` };
}

/**
 * How a run's configuration maps onto the workers' allow-list: the `parley worker` flags its policies
 * need (printed by the coordinator), so that an experiment naming its own endpoint runs only on workers
 * whose operator agreed to send that key variable to that URL.
 */
export function workerFlagsFor(policies: readonly PolicyConfig[]): string[] {
  const flags = new Set<string>();
  for (const p of policies) {
    if (p.baseURL !== undefined) flags.add(`--allow-endpoint ${normaliseEndpoint(p.baseURL) ?? p.baseURL}`);
    if (p.apiKeyEnv !== undefined) flags.add(`--allow-key-env ${p.apiKeyEnv}`);
  }
  return [...flags];
}
