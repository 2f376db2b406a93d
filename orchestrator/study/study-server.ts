import { randomBytes } from 'node:crypto';
import type { EpisodeRecord, PolicyConfig } from '../../protocol/index.js';
import type { Episode } from '../episode.js';
import type { EpisodePlan } from '../episode-plan.js';
import { EpisodeHost, type EpisodeRunSettings } from '../run/episode-host.js';
import { runLifecycle, type OpenRun, type RunExecutor, type RunResult } from '../run/lifecycle.js';
import type { RunConfig } from '../run-config.js';
import { StudyDesk } from './desk.js';
import { organiserStats } from './organiser-stats.js';
import { ParticipantStore, type Participant } from './participants.js';
import { studyApi } from './study-api.js';
import { writeStudyCsv } from './study-csv.js';
import { appendStudyEpisode, readStudyEpisodes, type StudyEpisode } from './study-episodes.js';
import type { Study } from './study-file.js';

export interface StudyServerOptions {
  port: number;
  host: string;
  allowOrigins: readonly string[];
  /** Behind a TLS reverse proxy: rate limits count the address the proxy appended to X-Forwarded-For; connections are capped in all only. */
  trustProxy: boolean;
  log: (line: string) => void;
  /** Stops the study (Ctrl-C): episodes in flight end unrecorded; their participants wait again on restart. */
  signal: AbortSignal;
  /** Once listening: the participants' URL (they add their id parameter) and the organiser's (key in the fragment). */
  onListening?: (studyUrl: string, organiserUrl: string) => void;
}

const HUMAN: PolicyConfig = { spec: 'human', params: {} };

/**
 * `parley study`: one long-running server whose records live in a run directory (the run lifecycle:
 * run.json, episodes.jsonl, ledgers, so `report` reads it as any run), plus the study's own files
 * (participants, refusals, study-episodes.jsonl, CSV exports). Episodes are not played in plan order:
 * each pair (or participant with the partner policy) takes the next planned scenario and mode, cycling,
 * under a fresh episode id.
 */
export function runStudy(config: RunConfig, study: Study, o: StudyServerOptions): Promise<RunResult> {
  const executor: RunExecutor = {
    hosting: 'local',
    command: 'serve',
    configure: (input) => input,
    execute: (run) => serveStudy(run, study, o).then(() => ({})),
  };
  return runLifecycle(config, executor, { log: o.log, signal: o.signal });
}

/** The study's episodes in flight, by episode id. */
interface InFlight {
  people: Participant[];
  fallback: boolean;
  done: Promise<void>;
}

async function serveStudy(run: OpenRun, study: Study, o: StudyServerOptions): Promise<void> {
  const dir = run.paths.dir;
  const store = new ParticipantStore(dir);
  const finished = readStudyEpisodes(dir);
  const inFlight = new Map<string, InFlight>();
  const partner: PolicyConfig | null = study.partner === 'none' ? null : { spec: study.partner, params: {}, cassetteDir: run.paths.cassettesDir };
  const templates = run.manifest.plans;
  let next = 0;
  let host: EpisodeHost | null = null;
  const start = (people: Participant[]) => {
    const template = templates[next++ % templates.length]!;
    const played = host ? startEpisode(host, template, people, { partner, settings, desk, store, log: o.log }) : null;
    // Not started: they wait on (their next poll puts them back in the room).
    if (!played) return;
    const entry: InFlight = { people, fallback: people.length === 1, done: Promise.resolve() };
    inFlight.set(played.episode.plan.episodeId, entry);
    entry.done = host!.play(played.episode, stopped).then(
      (record) => finish(record, played.episode),
      (err: Error) => {
        o.log(`study episode ${played.episode.plan.episodeId} failed: ${err.message}`);
        finish(null, played.episode);
      },
    );
  };
  const finish = (record: EpisodeRecord | null, episode: Episode) => {
    const entry = inFlight.get(episode.plan.episodeId)!;
    inFlight.delete(episode.plan.episodeId);
    if (o.signal.aborted) return;
    if (record) run.record(record);
    const row = endEpisode(episode.plan, entry, record, study, store, desk);
    appendStudyEpisode(dir, row);
    finished.push(row);
    writeStudyCsv(dir, study, [...store.byId.values()], finished);
    desk.changed();
  };
  const desk = new StudyDesk(study, store, Date.now, start, () => writeStudyCsv(dir, study, [...store.byId.values()], finished));
  const settings: Omit<EpisodeRunSettings, 'signal'> = { runId: run.manifest.runId, lock: run.lock, maxTurns: run.manifest.config.maxTurns, turnDeadlineMs: run.manifest.config.turnDeadlineMs, protocol: run.manifest.protocol };
  const organiserKey = randomBytes(16).toString('hex');
  const api = studyApi({ desk, organiserKey, trustProxy: o.trustProxy, log: o.log, organiserStats: () => organiserStats(store, finished, [...inFlight.values()], desk) });
  let stopped: Promise<string> = new Promise(() => {});
  let httpUrl = '';
  host = await EpisodeHost.start({
    log: run.notice,
    host: o.host,
    port: o.port,
    browsers: { allowOrigins: o.allowOrigins, trustProxy: o.trustProxy, routes: { page: 'study', extra: api, also: { '/seat': 'seat', '/organiser': 'organiser' } } },
    ...(partner ? { pool: { concurrency: 2, later: 0, seatsPerEpisode: 1, seatsPerProcess: 1, warm: [partner], botsOnly: partner.spec.startsWith('bot') } } : {}),
    humanJoinTtlMs: study.joinSeconds * 1000,
    tokenTtlMs: study.joinSeconds * 1000,
    humanDeadlineMs: study.turnSeconds * 1000,
    reconnectGraceMs: study.graceSeconds * 1000,
    onListening: (_agentUrl, url) => (httpUrl = url),
  });
  // Printed once the partner's processes are ready: nobody arrives before an episode can start.
  o.onListening?.(`${httpUrl}/`, `${httpUrl}/organiser#key=${organiserKey}`);
  try {
    stopped = new Promise<string>((resolve) => {
      const stop = () => {
        resolve('study stopped');
        host?.dropAll('study stopped');
      };
      if (o.signal.aborted) stop();
      else o.signal.addEventListener('abort', stop, { once: true });
    });
    await stopped;
    await Promise.all([...inFlight.values()].map((e) => e.done));
  } finally {
    desk.lobby.close();
    await host.close();
  }
}

interface StartDeps {
  partner: PolicyConfig | null;
  settings: Omit<EpisodeRunSettings, 'signal'>;
  desk: StudyDesk;
  store: ParticipantStore;
  log: (line: string) => void;
}

/** Reserves the seats of one episode: people take the first seats in order, the partner policy the rest. */
function startEpisode(host: EpisodeHost, template: EpisodePlan, people: Participant[], d: StartDeps): { episode: Episode } | null {
  const seats = Object.keys(template.policies ?? {});
  const policies = Object.fromEntries(seats.map((s, i) => [s, i < people.length ? HUMAN : d.partner ?? HUMAN]));
  const plan: EpisodePlan = { ...template, episodeId: `${template.episodeId}.${randomBytes(4).toString('hex')}`, policies };
  let episode: Episode;
  try {
    episode = host.prepare(plan, d.settings);
  } catch (err) {
    d.log(`study: cannot start an episode of ${template.scenario.id}: ${(err as Error).message}`);
    return null;
  }
  const startedAt = new Date().toISOString();
  people.forEach((p, i) => {
    p.state = 'playing';
    d.desk.seats.set(p.id, episode.tokens.get(seats[i]!)!);
    p.episodes.push({ episodeId: plan.episodeId, seat: seats[i]!, partner: people.length > 1 ? 'person' : 'ai-fallback', startedAt });
  });
  d.store.save();
  d.desk.changed();
  return { episode };
}

/** An episode ended: its participants go on to the survey; what happened to their seats is kept. */
function endEpisode(plan: EpisodePlan, entry: InFlight, record: EpisodeRecord | null, study: Study, store: ParticipantStore, desk: StudyDesk): StudyEpisode {
  const endedAt = new Date().toISOString();
  const lost = new Set((record?.seatEvents ?? []).filter((e) => e.kind === 'lost').map((e) => e.seat));
  const termination = record ? record.termination.reason : 'failed to start';
  const people: StudyEpisode['people'] = [];
  let startedAt = endedAt;
  for (const p of entry.people) {
    desk.seats.delete(p.id);
    const e = p.episodes.find((x) => x.episodeId === plan.episodeId);
    if (!e) continue;
    startedAt = e.startedAt;
    people.push({ id: p.id, seat: e.seat });
    e.endedAt = endedAt;
    e.termination = termination;
    if (lost.has(e.seat)) e.disconnected = study.onDisconnect;
    if (store.byId.has(p.id)) p.state = 'survey';
  }
  store.save();
  return {
    episodeId: plan.episodeId,
    scenarioId: plan.scenario.id,
    mode: plan.mode,
    people,
    partner: entry.fallback ? 'ai-fallback' : 'person',
    ...(entry.fallback ? { partnerPolicy: study.partner } : {}),
    startedAt,
    endedAt,
    termination,
    disconnected: [...lost].filter((s) => people.some((p) => p.seat === s)).map((seat) => ({ seat, handled: study.onDisconnect })),
    status: record ? record.status : 'failed',
  };
}
