import type { EpisodeRecord, PolicyConfig, SeatJudgeScore } from '../protocol/index.js';
import type { Scenario } from '../scenarios/model.js';
import { resolveJudgeView } from '../simulation/index.js';
import type { LlmClient } from '../llm/types.js';
import { withJudgement, type Evaluation } from './evaluation.js';
import { judgeEpisode } from './judge/judge.js';
import type { JudgeView } from './judge/prompt.js';
import { checkJudgeEndpoint } from './judge-preflight.js';
import { reformatClientFor } from './judge-panel.js';
import type { Rubric } from './rubric/rubric.js';
import { SettingsError } from './settings-error.js';

/**
 * `parley serve --judge SPEC`: the judge scores each episode the moment it ends, with the very request
 * `parley eval DIR --judge SPEC` would send for it (full background, the run's rubric and judge view, the
 * judge's temperature and reformat model), so a trainer driving a seat gets its reward in the episode's
 * last step. The judgement is stored on the record as `parley eval` stores it (so `eval --missing` skips it).
 */
export interface LiveJudgeSettings {
  /** The run's judge (`--judge`, or an experiment file's `judge:` block with its params and endpoint). */
  judge: PolicyConfig;
  rubric: Rubric;
  /** The run's recorded judge view setting (`--judge-view`), resolved per episode against its protocol. */
  judgeView?: string;
}

/** One episode judged: the record's new `evaluation`, and each seat's own part of it. */
export interface LiveJudgement {
  evaluation: Evaluation;
  seats: Record<string, SeatJudgeScore>;
}

export type LiveJudge = (record: EpisodeRecord, ctx: { scenario: Scenario; protocol: string | undefined; signal: AbortSignal }) => Promise<LiveJudgement>;

/**
 * Makes the judge's client and checks its endpoint once (before any seat is opened: an unreachable judge
 * is one line at start, not an error on every episode). A client that cannot be made is a SettingsError.
 */
export async function openLiveJudge(s: LiveJudgeSettings): Promise<LiveJudge> {
  const { spec } = s.judge;
  const params: Record<string, unknown> = { ...s.judge.params };
  const temperature = params['temperature'];
  if (temperature !== undefined && (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2)) {
    throw new SettingsError(`judge ${spec}: temperature must be a number from 0 to 2 (got ${JSON.stringify(temperature)})`);
  }
  // As `parley eval`: the temperature goes on every judge request, not into the client's defaults.
  delete params['temperature'];
  const endpoint = { ...(s.judge.baseURL ? { baseURL: s.judge.baseURL } : {}), ...(s.judge.apiKeyEnv ? { apiKeyEnv: s.judge.apiKeyEnv } : {}) };
  const { createClient } = await import('../llm/index.js');
  let client: LlmClient;
  try {
    client = createClient({ spec, params, ...endpoint });
  } catch (err) {
    throw new SettingsError(`judge ${spec}: ${(err as Error).message}`);
  }
  const unreachable = await checkJudgeEndpoint(spec, endpoint);
  // As `parley eval`: not a usage mistake but a failure to start (exit 1), nothing opened yet.
  if (unreachable) throw new Error(unreachable);
  const reformats = new Map<JudgeView, Promise<LlmClient | undefined>>();
  const reformatFor = (view: JudgeView) => {
    let made = reformats.get(view);
    if (!made) {
      made = reformatClientFor({ view, endpoint, ...(s.judge.reformat ? { recordedReformat: s.judge.reformat } : {}) }, spec);
      reformats.set(view, made);
    }
    return made;
  };
  return async (record, ctx) => {
    // The view `parley eval` would resolve from run.json: the recorded setting, else the protocol's default.
    const view = resolveJudgeView(undefined, s.judgeView, ctx.protocol) ?? 'parley';
    const reformatClient = await reformatFor(view);
    const judgement = await judgeEpisode(record, ctx.scenario, {
      client,
      spec,
      visibility: 'full',
      view,
      rubric: s.rubric,
      ...(reformatClient ? { reformatClient } : {}),
      ...(typeof temperature === 'number' ? { temperature } : {}),
      signal: ctx.signal,
    });
    const seats: Record<string, SeatJudgeScore> = {};
    for (const [seat, j] of Object.entries(judgement.seats)) {
      seats[seat] = j.ok
        ? { ok: true, judge: spec, rubric: s.rubric.name, scores: Object.fromEntries(Object.entries(j.scores).map(([d, x]) => [d, x.score])) }
        : { ok: false, judge: spec, rubric: s.rubric.name, error: { code: j.error.code, message: j.error.message.slice(0, 2000) } };
    }
    return { evaluation: withJudgement(record.evaluation ?? null, judgement), seats };
  };
}
