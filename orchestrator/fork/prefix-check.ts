import { receiversOf, type OrchestratorFrame } from '../../protocol/index.js';
import { terminationAfter } from '../engine/termination.js';
import { observationFrames, observe, observeTurn } from '../observe.js';
import { protocolOf, seatOrder, type World } from '../world.js';
import { readParentLedger, type ForkParent } from './parent.js';

/**
 * Fields of a frame that differ between the parent's seat and the fork's by design, and are left out when
 * the replayed prefix is compared: the envelope id (per sender and connection), the welcome's resume secret
 * (per seat) and episode id (each fork is its own episode), and the limits a fork may change (`--max-turns`,
 * the turn deadline: they govern the live part).
 */
const PER_EPISODE = ['id', 'v', 'resume', 'episodeId', 'limits'] as const;

function comparable(frame: object): Record<string, unknown> {
  const out = { ...(frame as Record<string, unknown>) };
  for (const k of PER_EPISODE) delete out[k];
  return out;
}

/** The first path where two JSON values differ (`self.goal`, `partners.0.profile.age`), or null. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return path || '(value)';
  if (a && typeof a === 'object') {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      const d = firstDifference(ao[k], bo[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : path || '(value)';
}

/** What a parent's seat knew before turn `at`: its first welcome, the partner states sent with it, and the first event of each turn. */
export function parentKnowledge(frames: readonly OrchestratorFrame[], at: number): { start: OrchestratorFrame[]; events: Map<number, OrchestratorFrame> } {
  const start: OrchestratorFrame[] = [];
  const events = new Map<number, OrchestratorFrame>();
  let opening = true;
  for (const f of frames) {
    if (opening && (f.type === 'seat.welcome' ? start.length === 0 : f.type === 'peer.state' || f.type === 'script.request')) start.push(f);
    else if (f.type !== 'ping' && f.type !== 'error') opening = false;
    // A rejoin replays the seat's knowledge: the first copy of each turn's event is the one it was sent live.
    if (f.type === 'turn.event' && f.turn < at && !events.has(f.turn)) events.set(f.turn, f);
  }
  return { start, events };
}

/**
 * Whether a fork at turn `at`, played in `world` (the fork's scenario, mode, protocol and limits), would
 * replay its parent exactly. Null when it would; else one line naming the first problem:
 * - the fork's rules would have ended the episode at or before the fork turn (nothing left to play, or a
 *   prefix the new rules would have cut short: a lower `--max-turns`, another stop rule);
 * - a seat would be told something else before the fork turn than the parent's seat was, as its ledger
 *   records it: another scenario, mode or protocol, or a scenario file edited since.
 */
export function prefixProblem(parent: ForkParent, world: World, at: number): string | null {
  const { record } = parent;
  const protocol = protocolOf(world);
  for (let k = 1; k <= at; k++) {
    const ended = terminationAfter(world.scenario, record.turns.slice(0, k), world.limits.maxTurns, protocol);
    if (!ended) continue;
    return k === at
      ? `episode ${record.episodeId} ends after turn ${k - 1} (${ended.reason}) under the fork's settings: nothing is left to play from turn ${at}${ended.reason === 'max_turns' ? ' (raise --max-turns to continue it)' : ''}`
      : `under the fork's settings episode ${record.episodeId} would have ended after turn ${k - 1} (${ended.reason}), before the fork turn ${at}: the replayed prefix would not be the parent's`;
  }
  for (const seat of seatOrder(world)) {
    const ledger = readParentLedger(parent, seat);
    if (!ledger.ok) return `cannot read the parent's ledger of seat ${seat}: ${ledger.message}`;
    const known = parentKnowledge(ledger.frames, at);
    const mine = observationFrames(observe(world, seat));
    const diff =
      mine.length !== known.start.length
        ? `${known.start.length} opening frame(s) → ${mine.length}`
        : mine.map((f, i) => firstDifference(comparable(known.start[i]!), comparable(f))).find((d) => d !== null);
    if (diff) return `the fork would change what seat ${seat} was told before turn ${at} (${mine[0]?.type ?? 'opening'}: ${diff}); a fork keeps the parent's scenario, mode and protocol`;
    for (let t = 0; t < at; t++) {
      const turn = record.turns[t]!;
      const sent = known.events.get(t);
      // A private move reached its speaker and recipients only: the others' ledgers must not hold it.
      if (!receiversOf(turn.action!, turn.seat, seatOrder(world)).includes(seat)) {
        if (sent) return `the parent's ledger of seat ${seat} holds turn ${t}, a private move not addressed to it: it cannot be replayed exactly`;
        continue;
      }
      if (!sent) return `the parent's ledger of seat ${seat} has no move for turn ${t}: it cannot be replayed exactly`;
      const d = firstDifference(comparable(sent), comparable(observeTurn({ ...turn, action: turn.action! })));
      if (d) return `the parent's ledger of seat ${seat} disagrees with its record at turn ${t} (${d})`;
    }
  }
  return null;
}
