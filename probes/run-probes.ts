import { statSync, truncateSync } from 'node:fs';
import type { ProbeDefinition } from './definitions.js';
import type { Answerer } from './ask.js';
import type { ProbeJudge } from './judge.js';
import type { ProbeTarget } from './plan.js';
import type { ProbeRun } from './probe-run.js';
import { appendProbeRecord, readProbeFile } from './probe-file.js';
import { probeKey, type ProbeRecord } from './probe-record.js';
import { scoreByRule, type Scored } from './score.js';

export interface ProbeJob {
  run: ProbeRun;
  probe: ProbeDefinition;
  targets: ProbeTarget[];
  /** Who answers each target (the seat's own policy, or `--model`). */
  answererOf: (target: ProbeTarget) => Answerer;
  judge: ProbeJudge | null;
  out: string;
  concurrency: number;
  progress?: (done: number, total: number) => void;
  /** Aborted: no new question is started (those in flight finish and are written). */
  stop?: AbortSignal;
  /** Aborted: the questions in flight are cut short (recorded with their error). */
  abandon?: AbortSignal;
}

export interface ProbeSummary {
  asked: number;
  resumed: number;
  failed: number;
}

/** The line for a target without its answer: what identifies it in the file (for resuming). */
function lineBase(job: Pick<ProbeJob, 'run' | 'probe'>, t: ProbeTarget, model: string): Omit<ProbeRecord, 'answer' | 'score'> {
  return {
    v: 1, run: job.run.runId, runDir: job.run.dir, episode: t.record.episodeId, scenario: t.scenario.id, kind: t.scenario.kind,
    mode: t.record.mode, ...(t.record.fork?.reveal?.length ? { reveal: t.record.fork.reveal } : {}), seat: t.seat, turn: t.turn, probe: job.probe.name, question: job.probe.question, model, truth: t.truth, scorer: job.probe.scorer,
  };
}

async function scoreAnswer(job: ProbeJob, t: ProbeTarget, answer: string): Promise<Scored> {
  if (job.probe.scorer !== 'judge') return scoreByRule(job.probe.scorer, answer, t.truth);
  if (!job.judge) return { score: null, why: 'not scored: give --judge MODEL' };
  try {
    return await job.judge.score(job.probe.question, String(t.truth), answer);
  } catch (err) {
    return { score: null, why: `the judge failed: ${String((err as Error)?.message ?? err).slice(0, 300)}` };
  }
}

/**
 * The targets not already answered in the probe file (a line there is never asked again). A torn last
 * line is ours, from an interrupted append: it is cut here, before anything is appended.
 */
export function unansweredTargets(job: Pick<ProbeJob, 'run' | 'probe' | 'targets' | 'answererOf' | 'out'>): { ok: true; todo: ProbeTarget[] } | { ok: false; message: string } {
  const existing = readProbeFile(job.out);
  if (!existing.ok) return existing;
  if (existing.tornBytes > 0) truncateSync(job.out, statSync(job.out).size - existing.tornBytes);
  const done = new Set(existing.records.map(probeKey));
  return { ok: true, todo: job.targets.filter((t) => !done.has(probeKey(lineBase(job, t, job.answererOf(t).label)))) };
}

/**
 * Puts the probe to every target not already answered in the probe file, `concurrency` at a time, and
 * appends each answer as it arrives (so an interrupted probe resumes where it stopped). Reads the run,
 * never writes it. A failed call is recorded with its error, not scored and not retried on resume.
 */
export async function runProbes(job: ProbeJob): Promise<{ ok: true; summary: ProbeSummary } | { ok: false; message: string }> {
  const open = unansweredTargets(job);
  if (!open.ok) return open;
  const todo = open.todo;
  const summary: ProbeSummary = { asked: 0, resumed: job.targets.length - todo.length, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < todo.length && !job.stop?.aborted) {
      const t = todo[next++]!;
      const answerer = job.answererOf(t);
      const base = lineBase(job, t, answerer.label);
      const got = await answerer.ask(t, job.probe, job.abandon);
      let record: ProbeRecord;
      if (!got.ok) {
        summary.failed += 1;
        record = { ...base, answer: null, score: null, error: got.message };
      } else {
        const scored = await scoreAnswer(job, t, got.answer);
        record = { ...base, answer: got.answer, score: scored.score, ...(scored.score === null ? { why: scored.why } : {}), ...(job.probe.scorer === 'judge' && job.judge ? { judge: job.judge.label } : {}) };
      }
      appendProbeRecord(job.out, record);
      summary.asked += 1;
      job.progress?.(summary.asked + summary.resumed, job.targets.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(job.concurrency, todo.length)) }, worker));
  return { ok: true, summary };
}
