import { JudgeErrorCode, type EpisodeRecord, type Mode } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { ChatRequest, LlmClient } from '../../llm/types.js';
import type { EvaluationError } from '../evaluation.js';
import { paperBackground, paperConversation } from '../judge/paper-view.js';
import { renderTranscript } from '../judge/transcript.js';
import type { RunDir } from '../run-dir.js';
import { seededRandom } from '../stats/rng.js';
import { wilson } from '../stats/wilson.js';

/**
 * Pairwise naturalness (the paper's human/LLM preference check): for each scenario run in both
 * directories, the judge reads the two conversations — in a seeded random order, so position bias
 * cannot favour one side — and says which reads more like a natural interaction between real people.
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

export type PairVerdict = (VerdictBase & { ok: true; winner: 'A' | 'B'; reasoning: string }) | (VerdictBase & { ok: false; error: EvaluationError });

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
export type CompareStyle = 'parley' | 'paper';

/** Appendix E's question, in Parley's words with the same meaning. */
export const PAPER_NATURALNESS_QUESTION = 'Which of the two interactions sounds more like a natural interaction that two people would have in this scenario?';

/**
 * The paper's annotation item: the context its annotators had (the scenario, both characters'
 * backgrounds and goals, as SOTOPIA rendered them; no judge-only text), the two interactions, and appendix E's question —
 * nothing else (no naturalness cues, no visibility notes). One user message, format asked in the text.
 */
function paperPrompt(first: string, second: string, scenario: Scenario | undefined): string {
  return [
    scenario ? paperBackground(scenario, { judgeOnly: false }) : '',
    'Interaction 1:',
    first,
    '',
    'Interaction 2:',
    second,
    '',
    `${PAPER_NATURALNESS_QUESTION} Answer with JSON: {"reasoning": "...", "more_natural": "1" or "2"}.`,
  ]
    .filter((l, i) => l !== '' || i > 0)
    .join('\n');
}

function prompt(first: string, second: string, scenario: Scenario | undefined): string {
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
      'Answer with JSON: {"reasoning": "...", "more_natural": "1" or "2"}.',
  ]
    .filter((l, i) => l !== '' || i > 0)
    .join('\n');
}

/**
 * The request that asks the judge about one pair, shown in this order. The one builder of it: a live
 * compare sends it (twice at most), `compare --batch` puts it in the batch's input file, so both ask the
 * very same thing and a batch reply is matched to its request by these messages.
 */
export function naturalnessRequest(pair: ComparePair, aShownFirst: boolean, style: CompareStyle = 'parley'): ChatRequest {
  const render = style === 'paper' ? paperConversation : renderTranscript;
  const ta = render(pair.a, pair.scenario);
  const tb = render(pair.b, pair.scenario);
  return {
    messages: style === 'paper'
      ? [{ role: 'user', content: paperPrompt(aShownFirst ? ta : tb, aShownFirst ? tb : ta, pair.scenario) }]
      : [
          { role: 'system', content: 'You compare two conversations for naturalness. Reply with a single JSON object and nothing else.' },
          { role: 'user', content: prompt(aShownFirst ? ta : tb, aShownFirst ? tb : ta, pair.scenario) },
        ],
    // Under paper the format is asked in the prompt only (no response_format), as SOTOPIA's calls did.
    ...(style === 'paper' ? {} : { json: { name: 'naturalness', schema: NATURALNESS_SCHEMA } }),
    temperature: 0,
  };
}

/** Which pairs show A first: one seeded coin per pair, in pair order (a batch and a live compare draw the same). */
export function presentationOrder(pairs: number, seed: number): boolean[] {
  const rand = seededRandom(seed);
  return Array.from({ length: pairs }, () => rand() < 0.5);
}

/** Asks the judge about one pair; retried once on a provider error or unusable reply. */
export async function judgePair(pair: ComparePair, aShownFirst: boolean, client: LlmClient, signal?: AbortSignal, style: CompareStyle = 'parley'): Promise<PairVerdict> {
  const base: VerdictBase = { key: pair.key, scenarioId: pair.scenarioId, episodeA: pair.a.episodeId, episodeB: pair.b.episodeId, aShownFirst, judge: `${client.provider}:${client.model}`, question: style };
  let error: EvaluationError = { code: JudgeErrorCode.ProviderError, message: 'not run', attempts: 0 };
  for (let attempt = 1; attempt <= 2; attempt++) {
    let content: string;
    try {
      const res = await client.chat(naturalnessRequest(pair, aShownFirst, style), signal);
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
    return { ...base, ok: true, winner: firstWins === aShownFirst ? 'A' : 'B', reasoning: typeof data.reasoning === 'string' ? data.reasoning : '' };
  }
  return { ...base, ok: false, error };
}

export interface CompareResult {
  verdicts: PairVerdict[];
  winsA: number;
  n: number;
  errors: number;
  /** A's win rate with its 95% Wilson interval; null when no pair was judged. */
  rate: { p: number | null; lo: number | null; hi: number | null };
}

/** Judges every pair (order drawn from `seed`), `concurrency` at a time. */
export async function comparePairs(
  pairs: readonly ComparePair[],
  client: LlmClient,
  opts: { seed: number; concurrency: number; signal?: AbortSignal; onProgress?: (done: number, total: number) => void; style?: CompareStyle },
): Promise<CompareResult> {
  const order = presentationOrder(pairs.length, opts.seed);
  const verdicts: PairVerdict[] = new Array(pairs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < pairs.length) {
      if (opts.signal?.aborted) return;
      const i = next++;
      verdicts[i] = await judgePair(pairs[i]!, order[i]!, client, opts.signal, opts.style ?? 'parley');
      opts.onProgress?.(++done, pairs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, pairs.length || 1)) }, worker));
  const judged = verdicts.filter((v): v is Extract<PairVerdict, { ok: true }> => !!v && v.ok);
  const winsA = judged.filter((v) => v.winner === 'A').length;
  return { verdicts: verdicts.filter(Boolean), winsA, n: judged.length, errors: verdicts.filter((v) => v && !v.ok).length, rate: wilson(winsA, judged.length) };
}
