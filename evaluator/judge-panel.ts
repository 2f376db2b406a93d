import type { ReformatConfig } from '../protocol/index.js';
import { JUDGE_VIEW_FACTS, sotopiaReformatFor } from '../simulation/index.js';
import { parseLlmSpec } from '../llm/spec.js';
import type { LlmClient } from '../llm/types.js';
import { recordJudgeFormatFallbacks, type RunLock } from '../run-dir/index.js';
import { judgeInBatches, type BatchJudgeResult } from './batch/eval-batch.js';
import type { BatchRetry } from './batch/retry.js';
import type { JudgeVisibility } from './evaluation.js';
import { evaluateRun, type EvaluateProgress, type EvaluateRunResult } from './evaluate-run.js';
import { checkJudgeEndpoint } from './judge-preflight.js';
import type { JudgeView } from './judge/prompt.js';
import type { Rubric } from './rubric/rubric.js';
import type { RunDir } from './run-dir.js';
import { SettingsError } from './settings-error.js';

/**
 * `parley eval`'s work on a locked run directory: one client per judge of the panel (a spec no client can
 * be made for is a SettingsError, exit 2), one reachability check per judge before anything is judged, then
 * the judges one after the other, live or through the provider's batch interface. Each judge is its own
 * variant on the records, so an interrupted panel resumes with `--missing` judge by judge. What it prints
 * is the caller's: it reports through `events`.
 */
export interface Endpoint {
  baseURL?: string;
  apiKeyEnv?: string;
}

export interface JudgePanelOptions {
  dir: string;
  lock: RunLock;
  run: RunDir;
  specs: readonly string[];
  /** Client settings and sampling params of every judge (the temperature apart: `temperature`). */
  params: Record<string, unknown>;
  /** The judges' temperature on every request (`--param temperature=T`); absent: 0, SOTOPIA's. */
  temperature?: number;
  endpoint: Endpoint;
  /** `--reformat-model`, else the run's judge's recorded reformat model (experiment file `judge: { reformat: … }`). */
  reformatFlag?: string;
  recordedReformat?: Partial<ReformatConfig>;
  visibility: JudgeVisibility;
  view: JudgeView;
  rubric: Rubric;
  concurrency: number;
  missingOnly: boolean;
  /** Through the provider's batch interface, with these retry and poll settings; absent: live. */
  batch?: { retry: BatchRetry; pollMs: number };
  signal: AbortSignal;
  abandon?: AbortSignal;
}

export interface JudgePanelEvents {
  /** Every judge's client is made and its endpoint answered: judging starts. */
  ready?(): void;
  /** A judge of the panel starts (before its first progress). */
  judgeStarts?(spec: string): void;
  progress(spec: string, p: EvaluateProgress): void;
  /** A line about a pending batch (its status, what is resent). */
  log(line: string): void;
  /** A judge finished; `batched` under --batch (null result: interrupted while the batch was pending). */
  judged(spec: string, result: EvaluateRunResult, batched?: BatchJudgeResult): void;
}

/** Runs the panel; returns how many judges never answered usably (evaluation errors and no score). */
export async function judgePanel(o: JudgePanelOptions, events: JudgePanelEvents): Promise<{ failedJudges: number }> {
  const clients = await judgeClients(o);
  events.ready?.();
  let failedJudges = 0;
  for (const spec of o.specs) {
    if (o.signal.aborted) break;
    const client = clients.get(spec)!;
    const reformatClient = await reformatClientFor(o, spec);
    events.judgeStarts?.(spec);
    const onProgress = (p: EvaluateProgress) => events.progress(spec, p);
    const temperature = o.temperature !== undefined ? { temperature: o.temperature } : {};
    const common = { spec, client, ...(reformatClient ? { reformatClient } : {}), concurrency: o.concurrency, missingOnly: o.missingOnly, signal: o.signal, onProgress };
    if (o.batch) {
      const batched = await judgeInBatches({
        ...common,
        dir: o.dir,
        lock: o.lock,
        run: o.run,
        params: o.params,
        endpoint: o.endpoint,
        selection: { spec, visibility: o.visibility, view: o.view, rubric: o.rubric, ...temperature },
        retry: o.batch.retry,
        pollMs: o.batch.pollMs,
        log: (line) => events.log(line),
      });
      if (!batched.result) continue; // interrupted while the batch was pending: it stays in run.json
      events.judged(spec, batched.result, batched);
      if (batched.result.errorSeats > 0 && batched.result.scoredSeats === 0) failedJudges++;
      continue;
    }
    const result = await evaluateRun(o.run, { ...common, ...temperature, lock: o.lock, visibility: o.visibility, view: o.view, rubric: o.rubric, ...(o.abandon ? { abandon: o.abandon } : {}) });
    events.judged(spec, result);
    // Evaluation errors are recorded results; but a judge that never answered usably is a failed command.
    if (result.errorSeats > 0 && result.scoredSeats === 0) failedJudges++;
  }
  // Stopped or done: run.json counts every judge call that fell back, as the records do.
  recordJudgeFormatFallbacks(o.lock, o.run.episodes.map((e) => e.record));
  return { failedJudges };
}

/** One client per judge, then one reachability check per judge: nothing is judged before all of them pass. */
async function judgeClients(o: JudgePanelOptions): Promise<Map<string, LlmClient>> {
  // Loaded only now: the provider SDKs take a while to load, and argument errors should not wait for them.
  const { createClient } = await import('../llm/index.js');
  const clients = new Map<string, LlmClient>();
  for (const spec of o.specs) {
    try {
      clients.set(spec, createClient({ spec, params: o.params, ...o.endpoint }));
    } catch (err) {
      throw new SettingsError(`judge ${spec}: ${(err as Error).message}`);
    }
  }
  for (const spec of o.specs) {
    const unreachable = await checkJudgeEndpoint(spec, o.endpoint);
    if (unreachable) throw new Error(unreachable);
  }
  return clients;
}

/**
 * Paper view: SOTOPIA sent its one reformat request to gpt-3.5-turbo; same endpoint and key as the judge
 * unless the run's judge names its reformat model with its own. None (the judge reformats) otherwise.
 */
export async function reformatClientFor(o: Pick<JudgePanelOptions, 'reformatFlag' | 'recordedReformat' | 'view' | 'endpoint'>, judgeSpec: string): Promise<LlmClient | undefined> {
  const recorded = o.reformatFlag === undefined ? o.recordedReformat : undefined;
  const reformatSpec = o.reformatFlag ?? recorded?.spec ?? sotopiaReformatFor(parseLlmSpec(judgeSpec).provider) ?? judgeSpec;
  if (!JUDGE_VIEW_FACTS[o.view].reformat || (reformatSpec === judgeSpec && !recorded)) return undefined;
  const endpoint = { ...o.endpoint, ...(recorded?.baseURL ? { baseURL: recorded.baseURL } : {}), ...(recorded?.apiKeyEnv ? { apiKeyEnv: recorded.apiKeyEnv } : {}) };
  const { createClient } = await import('../llm/index.js');
  try {
    return createClient({ spec: reformatSpec, ...endpoint });
  } catch (err) {
    throw new SettingsError(`reformat model ${reformatSpec}: ${(err as Error).message}`);
  }
}
