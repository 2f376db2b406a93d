import { resolve } from 'node:path';
import { collectBatchOutput, reportOutput, type BatchAnswer } from '../evaluator/batch/batch-results.js';
import { batchApiFor, pollBatch } from '../evaluator/batch/provider-batch.js';
import { terminalSafe } from '../text/terminal.js';
import type { Answerer } from './ask.js';
import type { ProbeDefinition } from './definitions.js';
import type { ProbeTarget } from './plan.js';
import { probeBatchesFile, readProbeBatches, saveProbeBatch, sameProbeBatch, type ProbeBatch, type ProbeBatchKey } from './probe-batches.js';

/**
 * `parley probe --batch`: the questions for LLM answerers go to the provider's batch interface, one JSONL
 * file and one batch per answering model, recorded beside the probe file before anything is waited for.
 * The same command run again finds a pending batch there and collects it instead of submitting another.
 * Collected answers are written by the live path (runProbes) through an answerer that answers from the
 * batch; what the batch failed or never answered is asked live. Bots answer as always, at once. Judge
 * scores (partner-goal, partner-secret) are asked live: they need the answers first.
 */

export interface ProbeBatchOptions {
  runDir: string;
  probe: ProbeDefinition;
  /** The targets not yet in the probe file. */
  targets: readonly ProbeTarget[];
  answererOf: (target: ProbeTarget) => Answerer;
  out: string;
  pollMs: number;
  signal: AbortSignal;
  log: (line: string) => void;
  now?: () => Date;
}

export interface ProbeBatchResult {
  /** Answerers that answer from the collected batches first (live for the rest). */
  answererOf: (target: ProbeTarget) => Answerer;
  /** Batch ids still pending when the command was interrupted (then nothing is asked or written). */
  pending: string[];
  fromBatch: () => number;
  /** Marks every collected batch so: called once their answers are in the probe file. */
  markCollected: () => void;
}

/** A batch this probe cannot send as asked: the command refuses it (exit 2) before anything is uploaded. */
export class ProbeBatchRefused extends Error {}

/** A target's custom_id: unique within one probe of one run by one model. */
export const probeCustomId = (t: ProbeTarget) => `${t.record.episodeId}#${t.seat}#${t.turn}`;

export async function probeInBatches(o: ProbeBatchOptions): Promise<ProbeBatchResult> {
  const recordFile = probeBatchesFile(o.out);
  const now = o.now ?? (() => new Date());
  const answers = new Map<string, Map<string, BatchAnswer>>();
  const collected: ProbeBatch[] = [];
  const pending: string[] = [];
  const groups = byAnswerer(o);
  refuseMixedEndpoints(groups, o);
  for (const [label, group] of groups) {
    const llm = o.answererOf(group[0]!).llm!;
    const key: ProbeBatchKey = { runDir: resolve(o.runDir), probe: o.probe.name, question: o.probe.question, model: label };
    const requests = new Map(group.map((t) => [probeCustomId(t), llm.request(t, o.probe)]));
    const { api, structured } = batchApiFor(llm.policy.spec, llm.policy.params, { ...(llm.policy.baseURL ? { baseURL: llm.policy.baseURL } : {}), ...(llm.policy.apiKeyEnv ? { apiKeyEnv: llm.policy.apiKeyEnv } : {}) });
    let batch = readProbeBatches(recordFile).find((b) => sameProbeBatch(b, key) && !b.collectedAt);
    if (batch) {
      o.log(`resuming batch ${terminalSafe(batch.id ?? `(input file ${batch.inputFileId})`)} recorded in ${recordFile} (${batch.customIds.length} questions to ${terminalSafe(label)}): not submitting another`);
    } else {
      const jsonl = [...requests].map(([id, req]) => api.requestLine(id, req)).join('\n') + '\n';
      const inputFileId = await api.upload(jsonl, `parley-probe-${o.probe.name}.jsonl`);
      batch = { ...key, id: null, structured, inputFileId, customIds: [...requests.keys()], createdAt: now().toISOString(), status: 'uploaded', counts: { total: requests.size, completed: 0, failed: 0 }, round: 0 };
      saveProbeBatch(recordFile, batch);
      o.log(`uploaded ${requests.size} questions to ${terminalSafe(label)} as ${terminalSafe(inputFileId)}`);
    }
    if (batch.id === null) {
      const created = await api.create(batch.inputFileId, { parley_probe: o.probe.name.slice(0, 500), model: label.slice(0, 500) });
      batch = { ...batch, id: created.id, status: created.status };
      saveProbeBatch(recordFile, batch);
      o.log(`submitted batch ${terminalSafe(created.id)}; its id is in ${recordFile}`);
    }
    const state = await pollBatch(api, batch.id!, { spec: label, pollMs: o.pollMs, signal: o.signal, log: o.log });
    if (!state) {
      pending.push(batch.id!);
      continue;
    }
    // Only ids asked now count: a recorded question no longer among the targets is not taken from the batch.
    const read = await collectBatchOutput(api, [state.outputFileId, state.errorFileId], new Set(batch.customIds.filter((id) => requests.has(id))));
    reportOutput(o.log, batch.id!, read);
    const failed = [...requests.keys()].filter((id) => !read.answers.get(id)?.ok).length;
    if (failed) o.log(`batch ${terminalSafe(batch.id!)} ended ${state.status}: ${failed} question(s) failed or went unanswered; asking them live`);
    answers.set(label, read.answers);
    collected.push({ ...batch, status: state.status, counts: state.counts });
  }
  let fromBatch = 0;
  const wrapped = new Map<Answerer, Answerer>();
  return {
    pending,
    fromBatch: () => fromBatch,
    markCollected: () => collected.forEach((b) => saveProbeBatch(recordFile, { ...b, collectedAt: now().toISOString() })),
    answererOf(t) {
      const inner = o.answererOf(t);
      const mine = answers.get(inner.label);
      if (!mine) return inner;
      let a = wrapped.get(inner);
      if (!a) {
        a = {
          ...inner,
          async ask(target, probe, signal) {
            const got = mine.get(probeCustomId(target));
            if (!got?.ok) return inner.ask(target, probe, signal);
            fromBatch += 1;
            return { ok: true, answer: got.content };
          },
        };
        wrapped.set(inner, a);
      }
      return a;
    },
  };
}

/**
 * One batch per model goes to one endpoint: a model the run's seats reached on more than one endpoint is
 * refused before anything is uploaded, never batched on the first one's.
 */
function refuseMixedEndpoints(groups: ReadonlyMap<string, ProbeTarget[]>, o: ProbeBatchOptions): void {
  for (const [label, group] of groups) {
    const first = o.answererOf(group[0]!).llm!.policy;
    const elsewhere = group.find((t) => {
      const p = o.answererOf(t).llm!.policy;
      return p.baseURL !== first.baseURL || p.apiKeyEnv !== first.apiKeyEnv;
    });
    if (elsewhere) throw new ProbeBatchRefused(`--batch: ${terminalSafe(label)} answers on more than one endpoint in this run (episode ${terminalSafe(elsewhere.record.episodeId)}); probe without --batch, or choose one model with --model`);
  }
}

/** The targets each LLM answerer answers, by its label; bots are left to answer live. */
function byAnswerer(o: ProbeBatchOptions): Map<string, ProbeTarget[]> {
  const groups = new Map<string, ProbeTarget[]>();
  for (const t of o.targets) {
    const a = o.answererOf(t);
    if (!a.llm) continue;
    groups.set(a.label, [...(groups.get(a.label) ?? []), t]);
  }
  return groups;
}
