import { JudgeErrorCode, type EpisodeRecord, type Mode } from '../../protocol/index.js';
import { NATURALNESS_FORMS, type NaturalnessForm } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { ChatRequest, LlmClient } from '../../llm/types.js';
import type { EvaluationError } from '../evaluation.js';
import { paperBackground, paperConversation } from '../judge/paper-view.js';
import { renderTranscript } from '../judge/transcript.js';
import type { RunDir } from '../run-dir.js';
import { seededRandom } from '../stats/rng.js';
import { wilson } from '../stats/wilson.js';
import { positionBias, type PositionBias } from './position-bias.js';

/**
 * Pairwise naturalness (the paper's human/LLM preference check): for each scenario run in both
 * directories, the judge reads the two conversations and says which reads more like a natural
 * interaction between real people. `orders: 'one'` shows each pair once, in a seeded random order (the
 * paper's design); `orders: 'both'` shows it in that order and swapped, and counts a win only when both
 * presentations agree (LLM judges favour a position: Shi et al. 2024, "Judging the Judges").
 */

export const NATURALNESS_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'Compare the two conversations: which sounds like real people talking, and why.' },
    more_natural: { type: 'string', enum: ['1', '2'], description: 'The conversation that reads more like a natural interaction: "1" or "2".' },
  },
  required: ['reasoning', 'more_natural'],
  additionalProperties: false,
};

/** The schema without the reasoning (`reasoning: 'omit'`). */
const CHOICE_SCHEMA: Record<string, unknown> = {
  ...NATURALNESS_SCHEMA,
  properties: { more_natural: (NATURALNESS_SCHEMA['properties'] as Record<string, unknown>)['more_natural'] },
  required: ['more_natural'],
};

export interface ComparePair {
  key: string;
  scenarioId: string;
  a: EpisodeRecord;
  b: EpisodeRecord;
  scenario: Scenario | undefined;
}

/**
 * Who judged a pair and how it was asked, kept with every verdict (as `judge.view` is with every score):
 * `judge` is the client's `provider:model`, `question` the style of the question (`paper`: appendix E's).
 */
interface VerdictBase {
  key: string;
  scenarioId: string;
  episodeA: string;
  episodeB: string;
  aShownFirst: boolean;
  judge: string;
  question: CompareStyle;
}

/** One presentation of a pair: which side was shown first and what the judge said of it. */
export type PresentationVerdict = ({ aShownFirst: boolean; ok: true; winner: 'A' | 'B'; reasoning: string }) | { aShownFirst: boolean; ok: false; error: EvaluationError };

/**
 * A pair's verdict. With one order, `winner` is the one presentation's answer. With both orders
 * (`orders: 'both'`, `presentations` holds the two answers) the winner is the side both answers chose,
 * else `tie`; a pair with an unanswered presentation is not judged (`ok: false`), the answered one kept.
 */
export type PairVerdict =
  | (VerdictBase & { ok: true; winner: 'A' | 'B' | 'tie'; reasoning: string; orders?: Orders; presentations?: PresentationVerdict[] })
  | (VerdictBase & { ok: false; error: EvaluationError; orders?: Orders; presentations?: PresentationVerdict[] });

/** How many presentation orders each pair is judged in: the paper's one random order, or both. */
export type Orders = 'one' | 'both';
export const ORDERS: readonly Orders[] = ['one', 'both'];

/**
 * Whether the judge is asked for a reasoning before its choice. `ask` (default; kept in the verdicts for
 * audit), `omit`: only the choice, as the paper's annotators answered (appendix E: "1 or 2").
 */
export type ReasoningAsk = 'ask' | 'omit';

/**
 * Matches episodes of A and B by (scenarioId, pairId, repeat); when B has no episode with the same repeat,
 * its first ok episode of that scenario and pair is used. Failed episodes are left out.
 */
export function matchEpisodes(a: RunDir, modeA: Mode, b: RunDir, modeB: Mode): ComparePair[] {
  const pick = (run: RunDir, mode: Mode) => run.episodes.map((e) => e.record).filter((e) => e.mode === mode && e.status === 'ok');
  const bs = pick(b, modeB);
  const pairs: ComparePair[] = [];
  for (const ea of pick(a, modeA)) {
    const same = bs.filter((eb) => eb.scenarioId === ea.scenarioId && eb.pairId === ea.pairId);
    const eb = same.find((x) => x.repeat === ea.repeat) ?? same[0];
    if (!eb) continue;
    pairs.push({ key: `${ea.scenarioId}/${ea.pairId}/${ea.repeat}`, scenarioId: ea.scenarioId, a: ea, b: eb, scenario: a.scenarios.get(ea.scenarioId) ?? b.scenarios.get(ea.scenarioId) });
  }
  return pairs;
}

/**
 * How the question is put. `parley`: the public setting and a list of what natural talk looks like.
 * `paper`: the paper's annotation question (appendix E) with the context its annotators had — the
 * scenario, both characters' backgrounds and goals — and no further criterion (no leakage cue).
 */
export type CompareStyle = NaturalnessForm;

/** Appendix E's question, in Parley's words with the same meaning. */
export const PAPER_NATURALNESS_QUESTION = 'Which of the two interactions sounds more like a natural interaction that two people would have in this scenario?';

/**
 * The paper's annotation item: the context its annotators had (the scenario, both characters'
 * backgrounds and goals, as SOTOPIA rendered them; no judge-only text), the two interactions, and appendix E's question —
 * nothing else (no naturalness cues, no visibility notes). One user message, format asked in the text.
 */
function paperPrompt(first: string, second: string, scenario: Scenario | undefined, reasoning: ReasoningAsk): string {
  return [
    scenario ? paperBackground(scenario, { judgeOnly: false }) : '',
    'Interaction 1:',
    first,
    '',
    'Interaction 2:',
    second,
    '',
    `${PAPER_NATURALNESS_QUESTION} ${answerFormat(reasoning)}`,
  ]
    .filter((l, i) => l !== '' || i > 0)
    .join('\n');
}

/** The answer's format, asked in the prompt. */
const answerFormat = (reasoning: ReasoningAsk) => (reasoning === 'ask' ? 'Answer with JSON: {"reasoning": "...", "more_natural": "1" or "2"}.' : 'Answer with JSON: {"more_natural": "1" or "2"}.');

function prompt(first: string, second: string, scenario: Scenario | undefined, reasoning: ReasoningAsk): string {
  const setting = scenario ? scenario.narrative.filter((n) => n.visibleTo === 'all').map((n) => n.text).join(' ') : '';
  return [
    setting ? `Setting: ${setting}` : '',
    'Conversation 1:',
    first,
    '',
    'Conversation 2:',
    second,
    '',
    'Which conversation reads more like a natural interaction between real people in this setting? Consider how people actually talk: ' +
      'length of turns, repetition, over-politeness, information appearing without having been shared, and whether the exchange flows. ' +
      answerFormat(reasoning),
  ]
    .filter((l, i) => l !== '' || i > 0)
    .join('\n');
}

/**
 * The request that asks the judge about one pair, shown in this order. The one builder of it: a live
 * compare sends it (twice at most), `compare --batch` puts it in the batch's input file, so both ask the
 * very same thing and a batch reply is matched to its request by these messages.
 */
export function naturalnessRequest(pair: ComparePair, aShownFirst: boolean, style: CompareStyle = 'parley', reasoning: ReasoningAsk = 'ask'): ChatRequest {
  const appendixE = NATURALNESS_FORMS[style].appendixE;
  const render = appendixE ? paperConversation : renderTranscript;
  const ta = render(pair.a, pair.scenario);
  const tb = render(pair.b, pair.scenario);
  return {
    messages: appendixE
      ? [{ role: 'user', content: paperPrompt(aShownFirst ? ta : tb, aShownFirst ? tb : ta, pair.scenario, reasoning) }]
      : [
          { role: 'system', content: 'You compare two conversations for naturalness. Reply with a single JSON object and nothing else.' },
          { role: 'user', content: prompt(aShownFirst ? ta : tb, aShownFirst ? tb : ta, pair.scenario, reasoning) },
        ],
    // In appendix E's form the format is asked in the prompt only (no response_format), as SOTOPIA's calls did.
    ...(appendixE ? {} : { json: { name: 'naturalness', schema: reasoning === 'ask' ? NATURALNESS_SCHEMA : CHOICE_SCHEMA } }),
    temperature: 0,
  };
}

/** Which pairs show A first: one seeded coin per pair, in pair order (a batch and a live compare draw the same). */
export function presentationOrder(pairs: number, seed: number): boolean[] {
  const rand = seededRandom(seed);
  return Array.from({ length: pairs }, () => rand() < 0.5);
}

/**
 * Every presentation of every pair, in the order they are asked: per pair, the seeded coin's order, then
 * (both orders) the swapped one. With one order this is presentationOrder, so the paper's single-order
 * requests are unchanged.
 */
export function presentations(pairs: number, seed: number, orders: Orders): boolean[][] {
  return presentationOrder(pairs, seed).map((first) => (orders === 'both' ? [first, !first] : [first]));
}

/** Asks the judge about one pair in one order; retried once on a provider error or unusable reply. */
export async function judgePair(pair: ComparePair, aShownFirst: boolean, client: LlmClient, signal?: AbortSignal, style: CompareStyle = 'parley', reasoning: ReasoningAsk = 'ask'): Promise<PairVerdict> {
  const base = verdictBase(pair, aShownFirst, client, style);
  const { aShownFirst: _, ...said } = await judgePresentation(pair, aShownFirst, client, signal, style, reasoning);
  return { ...base, ...said };
}

function verdictBase(pair: ComparePair, aShownFirst: boolean, client: LlmClient, style: CompareStyle): VerdictBase {
  return { key: pair.key, scenarioId: pair.scenarioId, episodeA: pair.a.episodeId, episodeB: pair.b.episodeId, aShownFirst, judge: `${client.provider}:${client.model}`, question: style };
}

async function judgePresentation(pair: ComparePair, aShownFirst: boolean, client: LlmClient, signal: AbortSignal | undefined, style: CompareStyle, reasoning: ReasoningAsk): Promise<PresentationVerdict> {
  let error: EvaluationError = { code: JudgeErrorCode.ProviderError, message: 'not run', attempts: 0 };
  for (let attempt = 1; attempt <= 2; attempt++) {
    let content: string;
    try {
      const res = await client.chat(naturalnessRequest(pair, aShownFirst, style, reasoning), signal);
      content = res.content;
    } catch (err) {
      if (signal?.aborted) throw err;
      error = { code: JudgeErrorCode.ProviderError, message: (err as Error).message, attempts: attempt };
      continue;
    }
    let data: { reasoning?: unknown; more_natural?: unknown };
    try {
      data = JSON.parse(content.replace(/^\s*```(?:json)?\s*\n?|\n?```\s*$/g, ''));
    } catch (err) {
      error = { code: JudgeErrorCode.BadJson, message: `reply is not JSON: ${(err as Error).message}`, attempts: attempt };
      continue;
    }
    const choice = String(data?.more_natural ?? '');
    if (choice !== '1' && choice !== '2') {
      error = { code: JudgeErrorCode.InvalidScores, message: `more_natural must be "1" or "2" (got ${JSON.stringify(data?.more_natural)})`, attempts: attempt };
      continue;
    }
    const firstWins = choice === '1';
    return { aShownFirst, ok: true, winner: firstWins === aShownFirst ? 'A' : 'B', reasoning: typeof data.reasoning === 'string' ? data.reasoning : '' };
  }
  return { aShownFirst, ok: false, error };
}

/** Both orders of one pair, combined: a win only when the two answers agree, else a tie. */
async function judgeBothOrders(pair: ComparePair, order: readonly boolean[], client: LlmClient, signal: AbortSignal | undefined, style: CompareStyle, reasoning: ReasoningAsk): Promise<PairVerdict> {
  const said: PresentationVerdict[] = [];
  for (const aShownFirst of order) said.push(await judgePresentation(pair, aShownFirst, client, signal, style, reasoning));
  const base = { ...verdictBase(pair, order[0]!, client, style), orders: 'both' as const, presentations: said };
  const failed = said.find((p) => !p.ok);
  if (failed && !failed.ok) return { ...base, ok: false, error: failed.error };
  const winners = said.map((p) => (p.ok ? p.winner : null));
  const winner = winners.every((w) => w === winners[0]) ? winners[0]! : 'tie';
  return { ...base, ok: true, winner, reasoning: said.map((p) => (p.ok ? p.reasoning : '')).filter(Boolean).join('\n---\n') };
}

export interface CompareResult {
  verdicts: PairVerdict[];
  winsA: number;
  /** Pairs won by B, and (both orders) pairs whose two presentations disagreed. */
  winsB: number;
  ties: number;
  n: number;
  errors: number;
  /** Position consistency and the first position's win rate, with intervals (position-bias.ts). */
  position: PositionBias;
  /** A's win rate with its 95% Wilson interval; null when no pair was judged. */
  rate: { p: number | null; lo: number | null; hi: number | null };
}

/** How `comparePairs` is run: the order's seed, how many pairs at once, and (for a resume or a stop) what it skips and when it stops. */
export interface ComparePairsOptions {
  seed: number;
  concurrency: number;
  /** Stop: no pair is started after it fires; the pairs being judged finish (unless `abandon` fires too). */
  signal?: AbortSignal;
  /** Abandon: the calls in flight are cut short and their pairs are left unjudged (a stop's bound ran out). */
  abandon?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Called with each pair's verdict the moment it returns (before progress), so a caller can make it durable. */
  onVerdict?: (verdict: PairVerdict) => void;
  /** Verdicts already on disk by pair key (`compare --missing`): kept as they are, their pairs not asked again. */
  judged?: ReadonlyMap<string, PairVerdict>;
  style?: CompareStyle;
  orders?: Orders;
  reasoning?: ReasoningAsk;
  /** The client that judges one pair (compare --batch: answering only from that pair's own requests); `client` otherwise. */
  clientFor?: (pair: ComparePair) => LlmClient;
}

/**
 * Judges every pair (order drawn from `seed` over all of `pairs`, so a resume asks each pair as the first
 * attempt would have), `concurrency` at a time. The result holds the verdicts in pair order, the kept ones
 * included; a pair not judged (stopped) has none.
 */
export async function comparePairs(pairs: readonly ComparePair[], client: LlmClient, opts: ComparePairsOptions): Promise<CompareResult> {
  const order = presentations(pairs.length, opts.seed, opts.orders ?? 'one');
  const style = opts.style ?? 'parley';
  const reasoning = opts.reasoning ?? 'ask';
  const verdicts: PairVerdict[] = pairs.map((p) => opts.judged?.get(p.key)) as PairVerdict[];
  const todo = pairs.flatMap((_, i) => (verdicts[i] ? [] : [i]));
  // Stopping lets a started pair finish; only abandoning cuts its calls short.
  const callSignal = opts.abandon ?? opts.signal;
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < todo.length) {
      if (opts.signal?.aborted) return;
      const i = todo[next++]!;
      let verdict: PairVerdict;
      try {
        const judge = opts.clientFor?.(pairs[i]!) ?? client;
        verdict = order[i]!.length === 1 ? await judgePair(pairs[i]!, order[i]![0]!, judge, callSignal, style, reasoning) : await judgeBothOrders(pairs[i]!, order[i]!, judge, callSignal, style, reasoning);
      } catch (err) {
        if (opts.abandon?.aborted) return;
        throw err;
      }
      if (opts.abandon?.aborted) return;
      verdicts[i] = verdict;
      opts.onVerdict?.(verdict);
      opts.onProgress?.(++done, todo.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, todo.length || 1)) }, worker));
  return summariseVerdicts(verdicts.filter(Boolean));
}

/** Wins, ties, A's win rate and the position figures of a set of verdicts (a compare's, or a file's). */
export function summariseVerdicts(verdicts: PairVerdict[]): CompareResult {
  const judged = verdicts.filter((v): v is Extract<PairVerdict, { ok: true }> => v.ok);
  const count = (w: string) => judged.filter((v) => v.winner === w).length;
  const winsA = count('A');
  return { verdicts, winsA, winsB: count('B'), ties: count('tie'), n: judged.length, errors: verdicts.length - judged.length, rate: wilson(winsA, judged.length), position: positionBias(verdicts) };
}
