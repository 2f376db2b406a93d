import { resolve } from 'node:path';
import { OrchestratorFrame, type EpisodeRecord } from '../protocol/index.js';
import { readEpisodes, readJsonlFile, readRunJson, readRunScenarios, RunPaths } from '../run-dir/index.js';
import type { Scenario } from '../scenarios/model.js';
import { RunConfig } from '../orchestrator/run-config.js';
import { SAFE_ID } from '../orchestrator/fork/parent.js';

/** A recorded run as a probe reads it: its config (each seat's policy), episodes and scenarios. Read only. */
export interface ProbeRun {
  dir: string;
  runId: string;
  config: RunConfig;
  episodes: EpisodeRecord[];
  scenarios: Map<string, Scenario>;
}

export type ProbeRunRead = { ok: true; run: ProbeRun } | { ok: false; message: string };

/** Reads run.json, episodes.jsonl and scenarios.jsonl, each validated (a run directory is untrusted). */
export function readProbeRun(dir: string): ProbeRunRead {
  const paths = new RunPaths(resolve(dir));
  const run = readRunJson(paths);
  if (!run.ok) return { ok: false, message: `${dir} is not a readable run directory: ${run.message}` };
  if (!run.run) return { ok: false, message: `${dir} is not a run directory (no run.json)` };
  const config = RunConfig.safeParse(run.run.config);
  if (!config.success) return { ok: false, message: `${dir}/run.json: its config is not one this version reads (${config.error.issues[0]?.path.join('.') || 'config'}: ${config.error.issues[0]?.message})` };
  const episodes = readEpisodes(paths);
  if (episodes.unreadable) return { ok: false, message: episodes.unreadable };
  const scenarios = readRunScenarios(paths);
  if (!scenarios.ok) return { ok: false, message: `${dir}: ${scenarios.message}` };
  return { ok: true, run: { dir: paths.dir, runId: run.run.runId, config: config.data, episodes: episodes.rows.map((r) => r.record), scenarios: scenarios.scenarios } };
}

/** A seat's ledger in the run, every line checked against the frame schema; ids that could name a path elsewhere are refused. */
export function readRunLedger(run: ProbeRun, episodeId: string, seat: string): { ok: true; frames: OrchestratorFrame[] } | { ok: false; message: string } {
  if (!SAFE_ID.test(episodeId) || !SAFE_ID.test(seat)) return { ok: false, message: `${run.dir}: episode ${JSON.stringify(episodeId.slice(0, 80))} or seat ${JSON.stringify(seat.slice(0, 40))} is not a safe name` };
  const paths = new RunPaths(run.dir);
  const read = readJsonlFile(paths.ledgerFile(episodeId, seat), OrchestratorFrame, paths.dir);
  return read.ok ? { ok: true, frames: read.values } : { ok: false, message: read.message };
}
