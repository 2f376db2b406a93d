import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { comparePairs, matchEpisodes, type Orders, type PairVerdict } from '../../evaluator/compare/naturalness.js';
import { loadRunDir } from '../../evaluator/run-dir.js';
import { pairedDifference } from '../../evaluator/stats/paired.js';
import { createProviderClient } from '../../llm/create-client.js';
import { recordedDefinition } from '../../simulation/index.js';
import type { Mode, PolicyConfig } from '../../protocol/index.js';
import { UsageError } from '../command.js';
import type { Effect } from './effect.js';
import { policyOf } from './judge-arms.js';
import { canonicalJson, type Specification } from './plan.js';

/*
 * The naturalness metric of a claim (issue 43): for each specification, the judge is asked which of the two
 * sides' dialogues of the same scenario reads more like a natural interaction — `parley compare`'s question
 * and pairing (evaluator/compare/naturalness.ts) in the form of the protocol the runs followed, in one seeded
 * order per pair or in both orders (`naturalnessOrder`; unset: the protocol's default, both, as compare). Each distinct (arm a, arm b, judge, order) is compared once; its verdicts are
 * appended to `DIR/naturalness/<id>.jsonl` as they come, so a rerun asks only the pairs not yet judged.
 * The effect is the mean over scenarios of (share of a's dialogues preferred − 0.5), a tie counting half:
 * above 0, a reads as more natural.
 */

export interface NaturalnessTask {
  id: string;
  armA: string;
  armB: string;
  modeA: Mode;
  modeB: Mode;
  judge: PolicyConfig;
  /** The order asked (`naturalnessOrder`); null: the default of the protocol side a's run followed, as `parley compare`. */
  orders: Orders | null;
  file: string;
}

const modeOf = (s: Specification, side: 'a' | 'b') => (s[side].experiment['modes'] as Mode[])[0]!;

/** The distinct comparisons the specifications need, and which one each specification reads. */
export function naturalnessTasks(specs: readonly Specification[], out: string, withLimits: (p: PolicyConfig) => PolicyConfig): { tasks: NaturalnessTask[]; bySpec: Map<number, NaturalnessTask> } {
  const tasks = new Map<string, NaturalnessTask>();
  const bySpec = new Map<number, NaturalnessTask>();
  for (const s of specs) {
    const ja = s.judging.a;
    const jb = s.judging.b;
    if (canonicalJson(ja) !== canonicalJson(jb)) throw new UsageError(`specification ${s.index}: naturalness asks one judge about both sides; claim.a and claim.b judge differently`);
    const judge = withLimits(policyOf(ja.judge));
    const orders = ((ja as Record<string, unknown>)['naturalnessOrder'] as Orders | undefined) ?? null;
    const key = { armA: s.a.id, armB: s.b.id, modeA: modeOf(s, 'a'), modeB: modeOf(s, 'b'), judge: judge.spec, orders };
    const id = createHash('sha256').update(canonicalJson(key)).digest('hex').slice(0, 16);
    const task = tasks.get(id) ?? { id, ...key, judge, file: path.join(out, 'naturalness', `${id}.jsonl`) };
    tasks.set(id, task);
    bySpec.set(s.index, task);
  }
  return { tasks: [...tasks.values()], bySpec };
}

/** The verdicts a comparison file holds, by pair key (a torn or foreign line is skipped: that pair is asked again). */
function savedVerdicts(file: string): Map<string, PairVerdict> {
  const saved = new Map<string, PairVerdict>();
  if (!existsSync(file)) return saved;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const v = JSON.parse(line) as PairVerdict;
      if (typeof v?.key === 'string' && v.ok === true && ['A', 'B', 'tie'].includes(v.winner)) saved.set(v.key, v);
    } catch {
      // an interrupted append: not a verdict
    }
  }
  return saved;
}

/** Runs every comparison not yet complete; returns how many pairs were asked now and how many were already judged. */
export async function compareSides(tasks: readonly NaturalnessTask[], dirOf: (armId: string) => string, o: { concurrency: number; signal: AbortSignal }): Promise<{ asked: number; kept: number }> {
  let asked = 0;
  let kept = 0;
  for (const t of tasks) {
    if (o.signal.aborted) break;
    const [a, b] = await Promise.all([loadRunDir(dirOf(t.armA)), loadRunDir(dirOf(t.armB))]);
    if (!a.ok || !b.ok) throw new Error((!a.ok ? a : (b as Extract<typeof b, { ok: false }>)).error.message);
    const pairs = matchEpisodes(a.run, t.modeA, b.run, t.modeB);
    const judged = savedVerdicts(t.file);
    kept += pairs.filter((p) => judged.has(p.key)).length;
    if (pairs.every((p) => judged.has(p.key))) continue;
    mkdirSync(path.dirname(t.file), { recursive: true });
    const client = createProviderClient(t.judge);
    // The question's form and the default order are those of the protocol side a's run followed, as `parley compare` asks them.
    const scoring = recordedDefinition(a.run.run).scoring;
    await comparePairs(pairs, client, {
      seed: 1,
      concurrency: o.concurrency,
      style: scoring.naturalness,
      orders: t.orders ?? scoring.naturalnessOrders,
      judged,
      signal: o.signal,
      // Durable at once: a verdict paid for survives a Ctrl-C or a crash, and the rerun does not ask it again.
      onVerdict: (v) => {
        asked += 1;
        if (v.ok) appendFileSync(t.file, `${JSON.stringify(v)}\n`);
      },
    });
  }
  return { asked, kept };
}

/** A specification's naturalness effect: per scenario, a's preferred share − 0.5 (ties half), with its bootstrap interval. */
export function naturalnessEffect(task: NaturalnessTask): Effect {
  const byScenario = new Map<string, number[]>();
  for (const v of savedVerdicts(task.file).values()) {
    if (!v.ok) continue;
    const score = v.winner === 'A' ? 1 : v.winner === 'B' ? 0 : 0.5;
    byScenario.set(v.scenarioId, [...(byScenario.get(v.scenarioId) ?? []), score]);
  }
  const diffs = [...byScenario.keys()].sort().map((k) => {
    const xs = byScenario.get(k)!;
    return xs.reduce((s, x) => s + x, 0) / xs.length - 0.5;
  });
  const d = pairedDifference(diffs, 1);
  return { pairs: diffs.length, effect: d.mean, lo: d.lo, hi: d.hi };
}
