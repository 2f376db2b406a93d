import type { GamePrivate } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';

/** What a game bot knows, folded from its own card, the notices it received and the moves it heard. */
export interface GameKnowledge {
  self: string;
  alive: string[];
  teammates: string[];
  /** Seats this seat knows are on another side than its own: its inspections (a seer's), nothing else. */
  knownFoes: string[];
  inspected: string[];
  /** The victim a teammate proposed on the team channel since the last notice that ended a night. */
  teamProposal: string | null;
  /** A seat that said it is the seer, and whom it named. */
  claimedSeer: string | null;
  seerNamed: string | null;
  /** Seats whose spoken clue is not one of this seat's own word's clues (word games). */
  oddClues: string[];
  mostSuspected(among: readonly string[]): string | null;
}

const SEER_CLAIM = /^I am the seer, and (\S+) is a werewolf\.$/;
const SUSPECT = /^I suspect (\S+)\.$/;
const PROPOSAL = /let's take (\S+) tonight\.$/;

export function readGameView(view: SeatView, card: GamePrivate): GameKnowledge {
  const self = view.welcome.seat;
  const notices = view.notices ?? [];
  const last = notices[notices.length - 1];
  const alive = last ? [...last.alive] : [...view.welcome.scenario.seats];
  const knownFoes: string[] = [];
  const inspected: string[] = [];
  // A mindreader read every card: the other sides are known outright.
  for (const p of view.peers) if (p.task?.kind === 'game' && p.task.team !== card.team) knownFoes.push(p.seat);
  for (const n of notices) {
    if (n.fact.kind !== 'inspected') continue;
    inspected.push(n.fact.seat);
    if (n.fact.team !== card.team) knownFoes.push(n.fact.seat);
  }
  let claimedSeer: string | null = null;
  let seerNamed: string | null = null;
  let teamProposal: string | null = null;
  // Each speaker's latest suspicion counts once; the latest proposal heard on the team channel stands.
  const suspicion = new Map<string, string>();
  const oddClues: string[] = [];
  for (const e of view.events) {
    if (e.seat === self || e.action.type !== 'speak') continue;
    const text = e.action.argument;
    const claim = SEER_CLAIM.exec(text);
    if (claim) { claimedSeer = e.seat; seerNamed = claim[1]!; }
    const s = SUSPECT.exec(text)?.[1];
    if (s) suspicion.set(e.seat, s);
    const p = e.to ? PROPOSAL.exec(text)?.[1] : undefined;
    if (p) teamProposal = p;
    if (card.clues && !e.to && !card.clues.includes(text) && !oddClues.includes(e.seat)) oddClues.push(e.seat);
  }
  const counts = new Map<string, number>();
  for (const s of suspicion.values()) if (alive.includes(s)) counts.set(s, (counts.get(s) ?? 0) + 1);
  return {
    self, alive, teammates: [...card.teammates], knownFoes, inspected, teamProposal, claimedSeer, seerNamed,
    oddClues: oddClues.filter((s) => alive.includes(s)),
    mostSuspected(among) {
      const ranked = [...counts].filter(([s]) => among.includes(s)).sort((a, b) => b[1] - a[1]);
      return ranked[0]?.[0] ?? null;
    },
  };
}
