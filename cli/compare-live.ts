import { existsSync } from 'node:fs';
import * as z from 'zod';
import { comparePairs, type ComparePair, type CompareResult, type ComparePairsOptions, type PairVerdict } from '../evaluator/compare/naturalness.js';
import type { LlmClient } from '../llm/types.js';
import { appendCompareVerdict, clearCompareJournal, compareJournalFile, readSavedVerdicts } from '../run-dir/index.js';
import { terminalSafe } from '../text/terminal.js';
import { UsageError } from './command.js';
import { interruptStages, STOP_BOUND_MS } from './interrupt-stages.js';

/**
 * Live `parley compare` (no --batch): every verdict is appended to the verdicts file's journal the moment
 * it returns (run-dir/compare-journal.ts). The first Ctrl-C starts no new pair, lets the pairs in flight
 * finish (abandoned after STOP_BOUND_MS), writes the verdicts file with everything judged and exits 130;
 * a second quits at once, the journal holding what returned. `--missing` keeps the saved verdicts and
 * judges only the other pairs, each in the presentation order the first attempt would have used.
 */

/** What a resume trusts of a saved line (the file is in a run directory: untrusted); the rest is kept as written. */
const SavedVerdict = z
  .object({
    key: z.string().max(2000),
    scenarioId: z.string().max(2000),
    episodeA: z.string().max(2000),
    episodeB: z.string().max(2000),
    aShownFirst: z.boolean(),
    judge: z.string().max(500),
    question: z.string().max(50),
    ok: z.boolean(),
    winner: z.enum(['A', 'B', 'tie']).optional(),
    orders: z.enum(['one', 'both']).optional(),
  })
  .passthrough();

export interface LiveCompare {
  pairs: readonly ComparePair[];
  client: LlmClient;
  options: Omit<ComparePairsOptions, 'signal' | 'abandon' | 'onVerdict' | 'judged'>;
  out: string;
  missing: boolean;
  /** The command that resumes this one (`… --missing`), printed when it stops. */
  resume: string;
  /** Writes the verdicts file whole (under the run's lock when it lies in a run). */
  write: (file: string, text: string) => Promise<void>;
}

export const verdictsText = (verdicts: readonly PairVerdict[]) => verdicts.map((v) => JSON.stringify(v) + '\n').join('');

/** The comparison, or 130 when Ctrl-C stopped it (everything judged saved, the resume line printed). */
export async function compareLive(o: LiveCompare): Promise<CompareResult | 130> {
  const judged = o.missing ? savedVerdicts(o) : new Map<string, PairVerdict>();
  if (!o.missing && existsSync(compareJournalFile(o.out))) {
    throw new UsageError(`${compareJournalFile(o.out)} holds the verdicts of an interrupted compare: add --missing to keep them and judge the rest (or delete it to start over)`);
  }
  if (o.missing) console.error(`parley compare: ${judged.size} pairs already judged in ${o.out}; judging the other ${o.pairs.length - judged.size}`);
  let returned = judged.size;
  const saved = () => `${returned} judged and saved; resume with \`--missing\`: ${o.resume}`;
  const tty = process.stderr.isTTY;
  const stop = interruptStages({
    first: () => process.stderr.write(`${tty ? '\n' : ''}interrupted: no new judge calls; the ones in flight finish (at most ${STOP_BOUND_MS / 1000} s; Ctrl-C again to quit now, losing nothing already returned)\n`),
    second: () => {
      process.stderr.write(`${tty ? '\n' : ''}${saved()}\n`);
      process.exit(130);
    },
  });
  try {
    const onVerdict = (v: PairVerdict) => {
      // Durable now: whatever stops this process next, the verdict is on disk.
      appendCompareVerdict(o.out, v);
      returned++;
    };
    const result = await comparePairs(o.pairs, o.client, { ...o.options, judged, signal: stop.signal, abandon: stop.abandon, onVerdict });
    await o.write(o.out, verdictsText(result.verdicts));
    clearCompareJournal(o.out);
    if (!stop.signal.aborted) return result;
    console.error(saved());
    return 130;
  } finally {
    stop.dispose();
  }
}

/**
 * The verdicts a resume keeps, by pair key: answered ones (an evaluation error is asked again) of pairs of
 * this comparison. A verdict of another judge or question is refused: one file holds one comparison.
 */
function savedVerdicts(o: LiveCompare): Map<string, PairVerdict> {
  const { values, problems } = readSavedVerdicts(o.out);
  if (problems.length) throw new UsageError(`--missing: ${terminalSafe(problems[0]!)} (${problems.length} unreadable line${problems.length > 1 ? 's' : ''})`);
  const keys = new Set(o.pairs.map((p) => p.key));
  const judge = `${o.client.provider}:${o.client.model}`;
  const byKey = new Map<string, PairVerdict>();
  for (const [i, value] of values.entries()) {
    const parsed = SavedVerdict.safeParse(value);
    if (!parsed.success) throw new UsageError(`--missing: saved verdict ${i + 1} of ${o.out} is not a verdict (${parsed.error.issues[0]?.message})`);
    const v = parsed.data;
    const orders = v.orders ?? 'one';
    if (v.judge !== judge || v.question !== (o.options.style ?? 'parley') || orders !== (o.options.orders ?? 'one')) {
      throw new UsageError(`--missing: ${o.out} holds verdicts of judge ${terminalSafe(v.judge)}, question ${terminalSafe(v.question)}, ${orders} order(s); this compare asks ${judge}, ${o.options.style ?? 'parley'}, ${o.options.orders ?? 'one'}: use another --out`);
    }
    if (!keys.has(v.key)) continue;
    // The last saved line of a pair wins (the journal is read after the file).
    if (v.ok) byKey.set(v.key, v as unknown as PairVerdict);
    else byKey.delete(v.key);
  }
  return byKey;
}
