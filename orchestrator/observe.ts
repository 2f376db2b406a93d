import { readsMind, type Body, type PeerPrivateState, type PeerState, type PublicScenario, type ScriptRequest, type SeatWelcome, type OrchestratorFrameBody, type TurnEvent, type TurnRecord } from '../protocol/index.js';
import { protocolView } from '../simulation/index.js';
import type { Scenario } from '../scenarios/model.js';
import { relationshipBetween } from '../scenarios/relationships.js';
import type { Reveal } from './fork/reveal.js';
import { ownProfile, partnerViews, profileAtLevel, scenarioSeat } from './profile-view.js';
import { protocolOf, SCRIPT_SEAT, seatOrder, type World } from './world.js';

/** What one seat receives at the start of an episode. */
export type Observation =
  | { kind: 'seat'; seat: string; welcome: Body<SeatWelcome>; peerStates: Body<PeerState>[] }
  | { kind: 'script'; seat: string; request: Body<ScriptRequest> };

/**
 * THE projection from the full world to what a seat may know (DESIGN invariant 1). Every frame that
 * carries scenario content to a process is built here; nothing else reads the scenario on a seat's behalf.
 *
 * - a scenario seat gets `seat.welcome`: the narrative visible to it, its own full profile (secret
 *   included), goal, hints and task, and its partners as the relationship allows; then `peer.state`
 *   frames with each partner's private state in mindreaders mode, or the fields a partner `shares`.
 * - the script writer (`SCRIPT_SEAT`, script mode) gets `script.request` with both sides in full.
 * What "in full" and "as the relationship allows" mean depends on the protocol (profile-view.ts); the
 * relationship story is judge-only unless the run opts in. Judge-only text is read here only when the run
 * asks to reproduce SOTOPIA's environment view for that generator (`leakJudgeOnly`, see `receivesJudgeOnly`).
 */
export function observe(world: World, seat: string): Observation {
  if (seat === SCRIPT_SEAT && world.mode === 'script') {
    return { kind: 'script', seat, request: scriptRequest(world) };
  }
  const { scenario } = world;
  const protocol = protocolOf(world);
  const own = scenarioSeat(scenario, seat);
  const welcome: Body<SeatWelcome> = {
    type: 'seat.welcome',
    episodeId: world.episodeId,
    seat,
    mode: world.mode,
    scenario: publicScenario(scenario, seat, receivesJudgeOnly(world, seat)),
    self: { seat, profile: ownProfile(own.character, protocol), goal: own.goal, hints: own.hints.map((h) => ({ ...h })), task: own.task },
    partners: partnerViews(scenario, seat, protocol),
    limits: { ...world.limits, actions: [...world.limits.actions] },
  };
  const told = protocolView(protocol);
  if (told) welcome.protocol = told;
  return { kind: 'seat', seat, welcome, peerStates: peerStatesFor(world, seat) };
}

/** The frames an observation turns into, in sending order. */
export function observationFrames(o: Observation): OrchestratorFrameBody[] {
  return o.kind === 'script' ? [o.request] : [o.welcome, ...o.peerStates];
}

/**
 * A move as the seats that receive it see it: seat and action only, no provenance. A private move keeps
 * its `to`, which is what marks it private in the recipients' ledgers and prompts; who receives it at all
 * is `receiversOf` (protocol/action.ts), applied by every sender of this frame.
 */
export function observeTurn(turn: TurnRecord & { action: NonNullable<TurnRecord['action']> }): Body<TurnEvent> {
  const { type, argument, to } = turn.action;
  return { type: 'turn.event', turn: turn.turn, seat: turn.seat, action: to === undefined ? { type, argument } : { type, argument, to: [...to] } };
}

/**
 * Whether `seat` is sent judge-only text: only when the run reproduces what SOTOPIA's code sent that
 * generator (its environment view: `--leak-judge-only script,mindreaders`). Never an agents-mode seat.
 */
export function receivesJudgeOnly(world: World, seat: string): boolean {
  const leak = protocolOf(world).leakJudgeOnly;
  if (world.mode === 'script') return seat === SCRIPT_SEAT && leak.includes('script');
  return world.mode === 'mindreaders' && leak.includes('mindreaders');
}

/**
 * Narrative text a viewer may read: segments for everyone, or for that seat (`null` viewer = all seats'
 * text); with `withJudgeOnly`, the judge-only text too, where SOTOPIA's environment view has it.
 */
function publicScenario(scenario: Scenario, viewer: string | null, withJudgeOnly = false): PublicScenario {
  const parts = scenario.narrative
    .filter((s) => viewer === null || s.visibleTo === 'all' || s.visibleTo.includes(viewer))
    .map((s) => s.text);
  if (withJudgeOnly && scenario.judgeOnly.trim()) parts.push(scenario.judgeOnly.trim());
  const text = parts.join('\n\n');
  return { id: scenario.id, kind: scenario.kind, text, seats: scenario.seats.map((s) => s.seat) };
}

function peerStatesFor(world: World, viewer: string): Body<PeerState>[] {
  const { scenario } = world;
  const protocol = protocolOf(world);
  const frames: Body<PeerState>[] = [];
  for (const partner of scenario.seats) {
    if (partner.seat === viewer) continue;
    // A `--mindread` map narrows who reads whom (protocol/mindread.ts); without one everyone reads everyone.
    if (world.mode === 'mindreaders' && readsMind(protocol.mindread, viewer, partner.seat)) {
      const state: PeerPrivateState = {
        seat: partner.seat,
        profile: ownProfile(partner.character, protocol),
        goal: partner.goal,
        hints: partner.hints.map((h) => ({ ...h })),
        task: partner.task,
      };
      frames.push({ type: 'peer.state', reason: 'mindreaders', state });
    } else if (partner.shares.length > 0) {
      // Only the listed fields; everything else stays as the relationship shows it.
      const profile = profileAtLevel(partner.character, relationshipBetween(scenario, viewer, partner.seat).level, protocol);
      if (partner.shares.includes('secret')) profile.secret = partner.character.secret;
      const state: PeerPrivateState = {
        seat: partner.seat,
        profile,
        goal: partner.shares.includes('goal') ? partner.goal : '',
        hints: [],
        task: partner.shares.includes('task') ? partner.task : null,
      };
      frames.push({ type: 'peer.state', reason: 'shared_field', state });
    }
  }
  return frames;
}

/**
 * A fork's reveals (`parley fork --reveal`) as `peer.state` frames, per receiving seat: one frame per
 * partner revealed to it, carrying what the seat already knew of that partner (the partner as its
 * welcome showed it, by the pair's own relationship, or the mindreaders / shared state) plus exactly the
 * revealed fields. `profile` is the partner's profile without its secret, which is a field of its own
 * (`profile+secret` for both). Sent at the fork turn to that seat only.
 */
export function revealFrames(world: World, reveals: readonly Reveal[]): Map<string, Body<PeerState>[]> {
  const { scenario } = world;
  const protocol = protocolOf(world);
  const out = new Map<string, Body<PeerState>[]>();
  const pairs = new Map<string, Reveal>();
  for (const r of reveals) {
    const key = `${r.to}\u0000${r.from}`;
    const had = pairs.get(key);
    pairs.set(key, had ? { ...had, fields: [...new Set([...had.fields, ...r.fields])] } : { ...r, fields: [...r.fields] });
  }
  for (const r of pairs.values()) {
    const partner = scenarioSeat(scenario, r.from);
    const known = peerStatesFor(world, r.to).find((f) => f.state.seat === r.from)?.state;
    // Nothing known beyond the welcome: the partner exactly as the welcome showed it (per-pair relationship).
    const welcomed = partnerViews(scenario, r.to, protocol).find((v) => v.seat === r.from)!.profile;
    const state: PeerPrivateState = known
      ? { ...known, profile: { ...known.profile }, hints: known.hints.map((h) => ({ ...h })) }
      : { seat: r.from, profile: { ...welcomed }, goal: '', hints: [], task: null };
    // `profile` first, so that a secret named beside it is added after, never dropped or implied.
    if (r.fields.includes('profile')) {
      const { secret: _secret, ...withoutSecret } = ownProfile(partner.character, protocol);
      state.profile = { ...withoutSecret, ...(state.profile.secret !== undefined ? { secret: state.profile.secret } : {}) };
    }
    for (const field of r.fields) {
      if (field === 'goal') state.goal = partner.goal;
      else if (field === 'secret') state.profile.secret = partner.character.secret;
      else if (field === 'hints') state.hints = partner.hints.map((h) => ({ ...h }));
      else if (field === 'task') state.task = partner.task;
    }
    const list = out.get(r.to) ?? [];
    list.push({ type: 'peer.state', reason: 'fork_reveal', state });
    out.set(r.to, list);
  }
  return out;
}

function scriptRequest(world: World): Body<ScriptRequest> {
  const { scenario } = world;
  const protocol = protocolOf(world);
  const request: Body<ScriptRequest> = {
    type: 'script.request',
    background: {
      scenario: publicScenario(scenario, null, receivesJudgeOnly(world, SCRIPT_SEAT)),
      seats: seatOrder(world).map((seat) => {
        const s = scenarioSeat(scenario, seat);
        return {
          seat,
          profile: ownProfile(s.character, protocol),
          goal: s.goal,
          hints: s.hints.map((h) => ({ ...h })),
          task: s.task,
          partners: partnerViews(scenario, seat, protocol),
        };
      }),
      mode: 'script',
    },
    limits: { ...world.limits, actions: [...world.limits.actions] },
    episodeId: world.episodeId,
  };
  const told = protocolView(protocol, 'script writer');
  if (told) request.protocol = told;
  return request;
}
