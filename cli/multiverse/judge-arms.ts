import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { judgePanel } from '../../evaluator/judge-panel.js';
import { planJudging } from '../../evaluator/plan-judging.js';
import type { EvaluateProgress } from '../../evaluator/evaluate-run.js';
import { SOTOPIA_RUBRIC } from '../../evaluator/rubric/builtin.js';
import { loadRubric } from '../../evaluator/rubric/load-rubric.js';
import type { Rubric } from '../../evaluator/rubric/rubric.js';
import type { BatchRetry } from '../../evaluator/batch/retry.js';
import type { JudgeView, PolicyConfig } from '../../protocol/index.js';
import { resolveJudgeView } from '../../simulation/index.js';
import { UsageError } from '../command.js';
import { lockRunDir } from '../run-dir-lock.js';
import { canonicalJson, type Judging, type Specification } from './plan.js';

/*
 * Judging a multiverse's arms (issue 43): each distinct (arm, judge, rubric) is judged once, and only the
 * episodes that judge has not scored yet (as `eval --missing`), so a judge axis re-judges the runs without
 * re-running them, and a rerun re-judges nothing. A claim file is the user's own, like an experiment
 * file: its judge's endpoint, key variable and rubric file are used as written.
 */

/** One judge over one arm's run directory. */
export interface JudgeTask {
  armId: string;
  dir: string;
  judge: PolicyConfig;
  rubric: Rubric;
  /** The judging's identity, as specifications name it (judgingKey). */
  key: string;
}

/** The identity of a side's judging: equal judges and rubrics are one judging. */
export function judgingKey(j: Judging): string {
  return canonicalJson(j);
}

export const policyOf = (p: unknown): PolicyConfig => (typeof p === 'string' ? { spec: p, params: {} } : { ...(p as PolicyConfig), params: (p as PolicyConfig).params ?? {} });

/** The rubric a judging scores (a file is read once per distinct name); a bad file is a usage error. */
function rubricOf(name: string | undefined, cache: Map<string, Rubric>): Rubric {
  if (name === undefined) return SOTOPIA_RUBRIC;
  let rubric = cache.get(name);
  if (!rubric) {
    const loaded = loadRubric(name);
    if (!loaded.ok) throw new UsageError(loaded.message);
    rubric = loaded.rubric;
    cache.set(name, rubric);
  }
  return rubric;
}

/** The distinct judge tasks of the specifications (none for a metric no judge reads). */
export function judgeTasks(specs: readonly Specification[], dirOf: (armId: string) => string, withLimits: (p: PolicyConfig) => PolicyConfig): JudgeTask[] {
  const tasks = new Map<string, JudgeTask>();
  const rubrics = new Map<string, Rubric>();
  for (const s of specs) {
    for (const side of ['a', 'b'] as const) {
      const judging = s.judging[side];
      if (judging.judge === undefined) continue;
      const arm = s[side];
      const key = judgingKey(judging);
      tasks.set(`${arm.id} ${key}`, { armId: arm.id, dir: dirOf(arm.id), judge: withLimits(policyOf(judging.judge)), rubric: rubricOf(judging.rubric, rubrics), key });
    }
  }
  return [...tasks.values()];
}

/** What the full judge is shown on a run: the run's recorded judge view, else its protocol's default. */
export function viewOfRun(run: RunDir): JudgeView {
  const config = run.run?.config;
  return resolveJudgeView(undefined, config?.judgeView, run.run?.protocol?.name ?? config?.protocol)!;
}

export interface JudgeArmsOptions {
  concurrency: number;
  batch?: { retry: BatchRetry; pollMs: number };
  signal: AbortSignal;
  log: (line: string) => void;
  progress: (task: JudgeTask, index: number, p: EvaluateProgress) => void;
}

/** Judges every task, one after the other (each judge's own calls run `concurrency` at once); returns the judgements made. */
export async function judgeArms(tasks: readonly JudgeTask[], o: JudgeArmsOptions): Promise<{ judged: number; skipped: number; failedJudges: number }> {
  let judged = 0;
  let skipped = 0;
  let failedJudges = 0;
  for (const [i, task] of tasks.entries()) {
    if (o.signal.aborted) break;
    const locked = await lockRunDir(task.dir, 'eval', Infinity);
    if (!locked.ok) throw new Error(locked.message);
    try {
      const loaded = await loadRunDir(task.dir);
      if (!loaded.ok) throw new Error(loaded.error.message);
      const view = viewOfRun(loaded.run);
      // What this judge scored before, counted as `eval --dry-run --missing` does (the batch path filters them out unseen).
      skipped += planJudging(loaded.run, { specs: [task.judge.spec], rubric: task.rubric, visibility: 'full', view, missingOnly: true })[0]!.skippedDone;
      const { temperature, ...params } = task.judge.params ?? {};
      const endpoint = { ...(task.judge.baseURL ? { baseURL: task.judge.baseURL } : {}), ...(task.judge.apiKeyEnv ? { apiKeyEnv: task.judge.apiKeyEnv } : {}) };
      const r = await judgePanel(
        {
          dir: task.dir, lock: locked.lock, run: loaded.run, specs: [task.judge.spec], params, endpoint, visibility: 'full', view,
          rubric: task.rubric, concurrency: o.concurrency, missingOnly: true, signal: o.signal,
          ...(typeof temperature === 'number' ? { temperature } : {}),
          ...(task.judge.reformat ? { recordedReformat: task.judge.reformat } : {}),
          ...(o.batch ? { batch: o.batch } : {}),
        },
        {
          progress: (_spec, p) => o.progress(task, i, p),
          log: o.log,
          judged: (_spec, result) => {
            judged += result.judged;
          },
        },
      );
      failedJudges += r.failedJudges;
    } finally {
      locked.lock.release();
    }
  }
  return { judged, skipped, failedJudges };
}
