import type { Mode } from '../../protocol/index.js';
import { JUDGE_VIEW_FACTS, protocolCardLine } from '../../simulation/index.js';
import type { JudgeView } from '../../protocol/index.js';
import { RELATIONSHIP_NAMES } from '../../protocol/index.js';
import type { RunDir } from '../run-dir.js';
import path from 'node:path';
import { judgeVariants, readEvaluation, type Evaluation } from '../evaluation.js';
import { isSotopia } from '../rubric/builtin.js';
import { mdCode, mdText } from './markdown-text.js';

/**
 * The simulation card the paper asks for: which modes ran, who knew what in each, which models with
 * which sampling settings, who judged and what the judge saw, the scenario set, counts and failures.
 * Everything is read from the run directories; nothing is assumed.
 */

/** What each generator sees, per mode (DESIGN: modes table). */
export const WHO_KNEW_WHAT: Record<Mode, string> = {
  script:
    'One script writer produced the whole dialogue and saw everything — every character\'s profile, secret, goal and private task data — except judge-only text.',
  agents:
    'One process per character, turn by turn. Each saw its own profile, goal and private task data, the public scenario, what the relationship shows of the partner, and the public conversation. Nothing else.',
  mindreaders:
    'As agents, plus each partner\'s private state (goal, secret, task data), delivered by an explicit, logged peer.state frame.',
};

export interface CardRun {
  dir: string;
  runId: string;
  codeVersion: string | null;
  scenarios: string | null;
  seed: number | null;
  maxTurns: number | null;
  createdAt: string | null;
  /** The simulation protocol from run.json, in words (null: a run from before the protocol setting, i.e. parley). */
  protocol: string | null;
}

export interface CardGenerator {
  mode: Mode;
  role: string;
  policy: string;
  model: string | null;
  params: string;
  episodes: number;
}

export interface SimulationCard {
  runs: CardRun[];
  modes: Mode[];
  generators: CardGenerator[];
  /** Fine-tuned models with the training data their run's experiment file records (policy spec → description). */
  trainingData: Record<string, string>;
  /** `view`: what the full judge was shown (absent on records written before views: Parley's). */
  /** Every judge of every panel (each rubric, visibility and view apart), in first-seen order. */
  judges: { spec: string; model: string | null; visibility: 'full' | 'blind'; view: JudgeView; rubric: string; temperature: number; promptVersion: string; seatsScored: number; seatErrors: number }[];
  scenarioSet: { count: number; sources: Record<string, number>; kinds: Record<string, number>; subsets: Record<string, number>; relationships: Record<string, number> };
  counts: { mode: Mode; episodes: number; ok: number; failed: number }[];
  terminations: Record<string, number>;
  failures: { episodeErrors: Record<string, number>; turnErrors: Record<string, number>; judgeErrors: Record<string, number> };
  /** `--on-unparsable none`: agent turns recorded as `none` for an unreadable reply, and scripts that became empty. */
  unparsable: { turns: number; scripts: number };
  /** `--on-provider-error none`: agent turns recorded as `none` for an LLM call that failed after its retries, and scripts made empty. */
  providerErrors: { turns: number; scripts: number };
  /** Moves whose one reformat request went to a model other than the seat's conversation, by `provider:model`. */
  reformatModels: Record<string, number>;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

function pick(obj: Record<string, unknown> | null | undefined, ...keys: string[]): unknown {
  for (const k of keys) {
    const parts = k.split('.');
    let cur: unknown = obj;
    for (const p of parts) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
    if (cur !== undefined && cur !== null) return cur;
  }
  return undefined;
}

function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

function paramsText(params: Record<string, unknown> | undefined): string {
  if (!params || Object.keys(params).length === 0) return 'defaults';
  return Object.entries(params).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ');
}

/** run.json's resolved `protocol` in words, every switch that departs from the paper named (simulation/ says them). */
export function protocolText(value: unknown): string | null {
  return protocolCardLine(value, mdText);
}

/**
 * A file named on the card: an absolute path is shown by its file name (the machine's folders are not
 * the reader's, and a shared card must not carry them); a relative name or `builtin` as it is.
 */
function shownPath(p: string | null | undefined): string | null {
  if (p === undefined || p === null) return null;
  return path.isAbsolute(p) ? path.basename(p) : p;
}

/**
 * Adds an episode's judgements to the card's judges: every judgement on it, not only the main one, so
 * each judge of a panel and a blind variant has a line (per spec, visibility, view, prompt and rubric).
 */
function countJudges(evaluation: Evaluation | undefined, judges: Map<string, SimulationCard['judges'][number]>, judgeErrors: Record<string, number>): void {
  for (const j of judgeVariants(readEvaluation(evaluation)).values()) {
    const rubric = isSotopia(j.judge.rubric) ? 'sotopia' : `${j.judge.rubric!.name} (${j.judge.rubric!.hash.slice(0, 12)})`;
    const key = JSON.stringify([j.judge.spec, j.judge.visibility, j.judge.view, j.judge.promptVersion, rubric]);
    const entry =
      judges.get(key) ??
      judges.set(key, { spec: j.judge.spec, model: j.judge.model ?? null, visibility: j.judge.visibility, view: j.judge.view ?? 'parley', rubric, temperature: j.judge.temperature, promptVersion: j.judge.promptVersion, seatsScored: 0, seatErrors: 0 }).get(key)!;
    for (const s of Object.values(j.seats)) {
      if (s.ok) entry.seatsScored++;
      else {
        entry.seatErrors++;
        bump(judgeErrors, s.error.code);
      }
    }
  }
}

/** Builds the card from one or more loaded run directories. */
export function buildCard(runs: readonly RunDir[]): SimulationCard {
  const card: SimulationCard = {
    runs: [],
    modes: [],
    generators: [],
    trainingData: {},
    judges: [],
    scenarioSet: { count: 0, sources: {}, kinds: {}, subsets: {}, relationships: {} },
    counts: [],
    terminations: {},
    failures: { episodeErrors: {}, turnErrors: {}, judgeErrors: {} },
    unparsable: { turns: 0, scripts: 0 },
    providerErrors: { turns: 0, scripts: 0 },
    reformatModels: {},
  };
  const generators = new Map<string, CardGenerator>();
  const judges = new Map<string, SimulationCard['judges'][number]>();
  const counts = new Map<Mode, { mode: Mode; episodes: number; ok: number; failed: number }>();
  const seenScenarios = new Set<string>();
  for (const run of runs) {
    const r = run.run;
    const firstEpisode = run.episodes[0]?.record;
    card.runs.push({
      // The folder's name only: a card is shared (reports, packs) and a local path says nothing elsewhere.
      dir: path.basename(path.resolve(run.dir)),
      runId: str(pick(r, 'runId', 'id')) ?? firstEpisode?.runId ?? '?',
      codeVersion: str(pick(r, 'codeVersion', 'code.git', 'code.commit', 'code.version', 'version', 'git')) ?? null,
      scenarios: shownPath(str(pick(r, 'config.scenarios', 'scenarios'))),
      seed: (pick(r, 'config.seed', 'seed') as number | undefined) ?? null,
      maxTurns: (pick(r, 'config.maxTurns', 'maxTurns') as number | undefined) ?? null,
      createdAt: str(pick(r, 'createdAt', 'startedAt')) ?? null,
      protocol: protocolText(pick(r, 'protocol')),
    });
    const policies = [...((pick(r, 'config.agents') as unknown[] | undefined) ?? []), pick(r, 'config.scriptWriter')];
    for (const p of policies) {
      const t = trainingDataText(p);
      if (t) card.trainingData[t.spec] = t.text;
    }
    for (const s of run.scenarios.values()) {
      if (seenScenarios.has(s.id)) continue;
      seenScenarios.add(s.id);
      card.scenarioSet.count++;
      bump(card.scenarioSet.sources, s.source);
      bump(card.scenarioSet.kinds, s.kind);
      for (const sub of s.subsets) bump(card.scenarioSet.subsets, sub);
      bump(card.scenarioSet.relationships, RELATIONSHIP_NAMES[s.relationship.level] ?? String(s.relationship.level));
    }
    for (const { record: e } of run.episodes) {
      if (!card.modes.includes(e.mode)) card.modes.push(e.mode);
      const c = counts.get(e.mode) ?? counts.set(e.mode, { mode: e.mode, episodes: 0, ok: 0, failed: 0 }).get(e.mode)!;
      c.episodes++;
      e.status === 'ok' ? c.ok++ : c.failed++;
      bump(card.terminations, e.termination.reason);
      for (const err of e.errors) bump(card.failures.episodeErrors, err.code);
      for (const t of e.turns) if (t.error) bump(card.failures.turnErrors, t.error.code);
      card.unparsable.turns += e.turns.filter((t) => t.unparsable).length;
      if (e.scriptWriter?.unparsable) card.unparsable.scripts++;
      card.providerErrors.turns += e.turns.filter((t) => t.providerError).length;
      if (e.scriptWriter?.providerError) card.providerErrors.scripts++;
      for (const t of [...e.turns, ...(e.scriptWriter ? [e.scriptWriter] : [])]) if (t.reformatModel) bump(card.reformatModels, t.reformatModel);
      for (const g of generatorsOf(e, r)) {
        const key = JSON.stringify([e.mode, g.role, g.policy, g.model, g.params]);
        const entry = generators.get(key) ?? generators.set(key, { mode: e.mode, ...g, episodes: 0 }).get(key)!;
        entry.episodes++;
      }
      countJudges(e.evaluation, judges, card.failures.judgeErrors);
    }
  }
  const order: Mode[] = ['script', 'agents', 'mindreaders'];
  card.modes.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  card.generators = [...generators.values()].sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode) || a.role.localeCompare(b.role));
  card.judges = [...judges.values()];
  card.counts = [...counts.values()].sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode));
  return card;
}

/** Who generated an episode's moves (the script writer, or each seat), with the params they used. */
function generatorsOf(e: RunDir['episodes'][number]['record'], r: RunDir['run']): { role: string; policy: string; model: string | null; params: string }[] {
  if (e.mode === 'script') {
    const w = e.scriptWriter;
    const cfg = pick(r, 'config.scriptWriter.params') as Record<string, unknown> | undefined;
    const transport = cfg?.transport;
    const params = e.seats[0]?.params ?? cfg;
    return [{ role: 'script writer', policy: w?.policy ?? '?', model: w?.model ?? null, params: paramsText(transport === undefined ? params : { ...params, transport }) }];
  }
  // The transport is a client setting (not in the seat's sampling params): shown from run.json's config.
  const agents = pick(r, 'config.agents') as Array<{ params?: { transport?: unknown } }> | undefined;
  return e.seats.map((s, i) => {
    const transport = agents?.[i]?.params?.transport;
    const params = transport === undefined ? s.params : { ...s.params, transport };
    return { role: `seat ${i + 1} (${s.seat})`, policy: s.policy, model: s.model ?? null, params: paramsText(params) };
  });
}

/** `{spec, trainingData}` of a run.json policy → the card's words for it (null without training data). */
function trainingDataText(policy: unknown): { spec: string; text: string } | null {
  const p = policy as { spec?: unknown; trainingData?: Record<string, unknown> } | undefined;
  const t = p?.trainingData;
  if (typeof p?.spec !== 'string' || !t || typeof t.file !== 'string') return null;
  const parts = [`trained on ${mdCode(shownPath(t.file) ?? '')}`];
  if (typeof t.from === 'string') parts.push(`from ${mdText(t.from)}`);
  if (typeof t.base === 'string') parts.push(`base model ${mdText(t.base)}`);
  if (typeof t.job === 'string') parts.push(`job ${mdText(t.job)}`);
  if (typeof t.fileId === 'string') parts.push(`file ${mdText(t.fileId)}`);
  if (typeof t.validationFile === 'string') parts.push(`validated on ${mdCode(t.validationFile)}`);
  return { spec: p.spec, text: parts.join('; ') };
}

function counted(map: Record<string, number>): string {
  const e = Object.entries(map);
  return e.length ? e.map(([k, n]) => `${mdText(k)} ×${n}`).join(', ') : 'none';
}

/** The card as Markdown lines. */
export function cardMarkdown(card: SimulationCard): string[] {
  const lines: string[] = ['## Simulation card', ''];
  for (const r of card.runs) {
    lines.push(`- **run** ${mdCode(r.runId)} in ${mdCode(r.dir)}` + (r.codeVersion ? `, code ${mdText(r.codeVersion)}` : '') + (r.createdAt ? `, ${mdText(r.createdAt)}` : '') + (r.seed !== null ? `, seed ${mdText(r.seed)}` : '') + (r.maxTurns !== null ? `, max ${mdText(r.maxTurns)} turns` : ''));
  }
  lines.push('', '**Protocol** (docs/fidelity.md)', '');
  for (const r of card.runs) lines.push(`- run ${mdCode(r.runId)}: ${r.protocol ?? 'parley (recorded before the protocol setting existed)'}`);
  lines.push('', '**Modes and who knew what**', '');
  for (const m of card.modes) lines.push(`- ${mdCode(m)}: ${WHO_KNEW_WHAT[m] ?? 'unknown mode'}`);
  lines.push('', '**Generators**', '', '| mode | role | policy | model | sampling | episodes |', '|---|---|---|---|---|---|');
  for (const g of card.generators) lines.push(`| ${mdCell(g.mode)} | ${mdCell(g.role)} | ${mdCell(g.policy)} | ${mdCell(g.model ?? '—')} | ${mdCell(g.params)} | ${g.episodes} |`);
  const tuned = Object.entries(card.trainingData);
  if (tuned.length) {
    lines.push('', '**Fine-tuned models and their training data**', '');
    for (const [spec, text] of tuned) lines.push(`- ${mdCode(spec)}: ${text}`);
  }
  lines.push('', card.judges.length > 1 ? '**Judges**' : '**Judge**', '');
  if (!card.judges.length) lines.push('- none: no episode has judge scores (run `parley eval DIR --judge …`).');
  for (const j of card.judges) {
    const sees = j.visibility === 'blind'
      ? "blind: the public transcript and the evaluated seat's own goal only"
      : JUDGE_VIEW_FACTS[j.view].sees;
    lines.push(`- ${mdCode(j.spec)}${j.model ? ` (model ${mdText(j.model)})` : ''}, rubric ${mdText(j.rubric)}, temperature ${mdText(j.temperature)}, prompt ${mdText(j.promptVersion)}; sees ${sees}; ${j.seatsScored} seats scored, ${j.seatErrors} evaluation errors`);
  }
  const s = card.scenarioSet;
  lines.push('', '**Scenario set**', '', `- ${s.count} scenarios; sources: ${counted(s.sources)}; kinds: ${counted(s.kinds)}; subsets: ${counted(s.subsets)}; relationships: ${counted(s.relationships)}`);
  for (const r of card.runs) if (r.scenarios) lines.push(`- run ${mdCode(r.runId)} scenario source: ${mdText(r.scenarios)}`);
  lines.push('', '**Counts**', '', '| mode | episodes | ok | failed |', '|---|---|---|---|');
  for (const c of card.counts) lines.push(`| ${mdCell(c.mode)} | ${c.episodes} | ${c.ok} | ${c.failed} |`);
  lines.push('', `- terminations: ${counted(card.terminations)}`);
  lines.push(`- episode errors: ${counted(card.failures.episodeErrors)}`, `- failed turns: ${counted(card.failures.turnErrors)}`, `- evaluation errors: ${counted(card.failures.judgeErrors)}`);
  lines.push(`- unreadable replies recorded as \`none\` (--on-unparsable none): ${card.unparsable.turns} agent turn(s), ${card.unparsable.scripts} script(s) made empty`);
  lines.push(`- failed LLM calls recorded as \`none\` (--on-provider-error none): ${card.providerErrors.turns} agent turn(s), ${card.providerErrors.scripts} script(s) made empty`);
  lines.push(`- reformat requests sent to a reformat model (--reformat-model): ${counted(card.reformatModels)}`);
  return lines;
}

/** A datum as a Markdown table cell (see markdown-text.ts: one line, Markdown and `|` escaped). */
export function mdCell(text: unknown): string {
  return mdText(text);
}
