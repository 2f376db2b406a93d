/**
 * An episode as a readable transcript: who is who, each turn with its number, speaker and action type,
 * errors in place, how it ended, the task outcome and the judge's scores. One model, rendered as
 * terminal text (`parley show`) and as HTML (the report's transcript pages), so both say the same.
 */
import type { EpisodeRecord, TurnRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { judgeVariants, readEvaluation, type Evaluation } from '../evaluation.js';
import { isSotopia } from '../rubric/builtin.js';
import { terminalSafe } from '../../text/terminal.js';

export interface TranscriptLine {
  turn: number;
  seat: string;
  /** The character's name (the seat id when unknown). */
  name: string;
  /** `speak`, `non-verbal communication`, `action`, `leave`, `none` (or a task move's type), or `error`. */
  kind: string;
  text: string;
  /** A private move's recipients, by name (absent: every seat received it). */
  to?: string[];
  /** Why the move is what it is when the seat did not choose it: an unreadable reply recorded as `none` (`--on-unparsable none`) or a failed LLM call (`--on-provider-error none`). */
  note?: string;
}

export interface Transcript {
  episodeId: string;
  mode: string;
  scenario: string;
  pairId: string;
  repeat: number;
  status: string;
  seats: { seat: string; name: string; who: string }[];
  lines: TranscriptLine[];
  end: string;
  outcome: string;
  /** One line per judge and seat, e.g. `openai:gpt-4 (full) agent1: goal 7, believability 8, …`. */
  scores: string[];
  errors: string[];
}

/** Who played a seat: policy, and provider/model when an LLM did. */
function who(s: { policy: string; provider?: string | undefined; model?: string | undefined }): string {
  return s.model ? `${s.policy}${s.policy.includes(s.model) ? '' : ` → ${s.provider ?? ''}:${s.model}`}` : s.policy;
}

function outcomeText(r: EpisodeRecord, names: Map<string, string>): string {
  const o = r.outcome;
  if (o.kind === 'mutual_friends') {
    const picks = Object.entries(o.selections).map(([seat, pick]) => `${names.get(seat) ?? seat} selected ${pick ?? 'nobody'}`).join(', ');
    return `${o.success ? 'success' : 'no success'}: ${picks} (shared friend: ${o.answer})`;
  }
  if (o.kind === 'craigslist') {
    return o.deal ? `deal at $${o.price}${o.acceptedBy ? `, accepted by ${names.get(o.acceptedBy) ?? o.acceptedBy}` : ''}` : 'no deal';
  }
  if (o.kind === 'auction') {
    return o.sold ? `sold to ${names.get(o.winner ?? '') ?? o.winner} for $${o.price}` : 'not sold';
  }
  if (o.kind === 'split') {
    const shares = Object.entries(o.shares ?? {}).map(([seat, n]) => `${names.get(seat) ?? seat} ${n}`).join(', ');
    return o.passed ? `split passed (proposed by ${names.get(o.proposer ?? '') ?? o.proposer}): ${shares}` : 'no split passed';
  }
  return 'open-ended scenario (no task outcome)';
}

/** Score lines of every judgement stored on the episode (a blind judgement next to the full one). */
function scoreLines(evaluation: Evaluation | undefined, names: Map<string, string>): string[] {
  const judgements = [...judgeVariants(readEvaluation(evaluation)).values()];
  const lines: string[] = [];
  for (const j of judgements) {
    for (const [seat, s] of Object.entries(j.seats)) {
      // Rubric and dimension names come from a rubric file through the records: made safe for a terminal here.
      const rubric = isSotopia(j.judge.rubric) ? '' : `, rubric ${terminalSafe(j.judge.rubric!.name)}`;
      const head = `${j.judge.spec} (${j.judge.visibility}${rubric}) ${names.get(seat) ?? seat}`;
      lines.push(s.ok ? `${head}: ${Object.entries(s.scores).map(([d, x]) => `${terminalSafe(d)} ${x.score}`).join(', ')}` : `${head}: evaluation error ${s.error.code}: ${s.error.message}`);
    }
  }
  return lines;
}

/** The transcript model of one episode. */
export function buildTranscript(r: EpisodeRecord, scenario?: Scenario): Transcript {
  const names = new Map(r.seats.map((s) => [s.seat, s.character || s.seat]));
  const lines: TranscriptLine[] = r.turns.map((t) => ({
    turn: t.turn,
    seat: t.seat,
    name: names.get(t.seat) ?? t.seat,
    kind: t.action ? t.action.type : 'error',
    text: t.action ? t.action.argument : `${t.error?.code ?? 'error'}: ${t.error?.message ?? ''}`,
    ...(receiversBesides(t) ? { to: receiversBesides(t)!.map((s) => names.get(s) ?? s) } : {}),
    ...(t.unparsable ? { note: `unreadable reply recorded as none (${t.unparsable.code}: ${t.unparsable.message})` } : {}),
    ...(t.providerError ? { note: `failed LLM call recorded as none (${t.providerError.code}: ${t.providerError.message})` } : {}),
  }));
  const term = r.termination;
  const end = `${term.reason}${term.detail ? ` (${term.detail})` : ''}${term.seat ? ` by ${names.get(term.seat) ?? term.seat}` : ''} after ${r.turns.length} turn(s)`;
  return {
    episodeId: r.episodeId,
    mode: r.mode,
    scenario: scenario?.codename ? `${r.scenarioId} "${scenario.codename}"` : r.scenarioId,
    pairId: r.pairId,
    repeat: r.repeat,
    status: r.status,
    seats: [
      ...r.seats.map((s) => ({ seat: s.seat, name: s.character, who: who(s) })),
      ...(r.scriptWriter ? [{ seat: 'script writer', name: 'script writer', who: who(r.scriptWriter) }] : []),
    ],
    lines,
    end,
    outcome: outcomeText(r, names),
    scores: scoreLines(r.evaluation, names),
    errors: r.errors.map((e) => `${e.seat ? `${names.get(e.seat) ?? e.seat} ` : ''}${e.turn !== undefined ? `turn ${e.turn} ` : ''}${e.code}: ${e.message}`),
  };
}

/**
 * Whom a private move went to besides its speaker: the action's `to` (a whisper), else the record's
 * receivers (a game's team channel or private move, which the game routes, not the seat); null when public.
 */
function receiversBesides(t: TurnRecord): string[] | null {
  return t.action?.to ?? (t.to ? t.to.filter((s) => s !== t.seat) : null);
}

/** The mark after a private move's speaker: ` [private to Bea, Cal]`, ` [private]` when only the speaker had it; empty for a public move. */
export function privateTo(l: TranscriptLine): string {
  return l.to ? (l.to.length ? ` [private to ${l.to.join(', ')}]` : ' [private]') : '';
}

/** One transcript line as text: `#3 Name [action] select Juniper`, `#0 Name: "hello"`, `#0 Name [private to Bea]: "psst"`. */
export function lineText(l: TranscriptLine): string {
  if (l.kind === 'speak') return `#${l.turn} ${l.name}${privateTo(l)}: "${l.text}"`;
  if (l.kind === 'none') return `#${l.turn} ${l.name} [none]${l.note ? ` — ${l.note}` : ''}`;
  return `#${l.turn} ${l.name}${privateTo(l)} [${l.kind}] ${l.text}`;
}

/** The transcript as terminal text. */
export function transcriptText(t: Transcript): string {
  const out = [
    `=== ${t.episodeId}`,
    `mode ${t.mode} · scenario ${t.scenario} · pair ${t.pairId} · repeat ${t.repeat} · ${t.status}`,
    ...t.seats.map((s) => `  ${s.seat}: ${s.name} (${s.who})`),
    '',
    ...t.lines.map((l) => `  ${lineText(l)}`),
    '',
    `end: ${t.end}`,
    `outcome: ${t.outcome}`,
    ...t.errors.map((e) => `error: ${e}`),
    ...(t.scores.length ? t.scores.map((s) => `scores: ${s}`) : ['scores: not evaluated (parley eval)']),
  ];
  return out.join('\n');
}
