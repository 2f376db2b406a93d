import type { Mode, PeerPrivateState, ScriptRequest, SeatWelcome, TurnEvent, TurnRequest } from '../../../protocol/index.js';
import { ACTION_TYPES } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';

/**
 * Hand-built frames for the LLM policy tests (test support only): two characters in an open scenario,
 * with distinctive goals and secrets so tests can check which of them reach a prompt.
 */
export const ALICE_GOAL = 'Convince your roommate to keep the noise down tonight';
export const ALICE_SECRET = 'Alice is secretly applying for a job abroad';
export const ALICE_HINT = 'You have an exam at eight tomorrow morning';
export const BOB_GOAL = 'Get your roommate to agree to host a party on Friday';
export const BOB_SECRET = 'Bob broke the coffee machine last week';
export const BOB_HINT = 'You already invited twenty people';

const bobPrivate: PeerPrivateState = {
  seat: 'B',
  profile: { name: 'Bob Lee', age: 29, occupation: 'drummer', gender: 'Man', pronouns: 'he/him', secret: BOB_SECRET },
  goal: BOB_GOAL,
  hints: [{ kind: 'extra_info', text: BOB_HINT }],
  task: null,
};

/** Alice's view (seat A) at the start of an episode, optionally as a mindreader. */
export function aliceView(mode: Mode = 'agents', events: TurnEvent[] = []): SeatView {
  return {
    welcome: {
      v: 1,
      id: 'w1',
      type: 'seat.welcome',
      episodeId: 'ep-test-1',
      seat: 'A',
      mode,
      scenario: { id: 'sc-roommates', kind: 'open', text: 'Two roommates talk in their shared kitchen late in the evening.', seats: ['A', 'B'] },
      self: {
        seat: 'A',
        profile: { name: 'Alice Chen', age: 24, occupation: 'nurse', gender: 'Woman', pronouns: 'she/her', personality: 'Calm and direct.', secret: ALICE_SECRET },
        goal: ALICE_GOAL,
        hints: [{ kind: 'extra_info', text: ALICE_HINT }],
        task: null,
      },
      partners: [{ seat: 'B', relationship: 3, profile: { name: 'Bob Lee', age: 29, occupation: 'drummer', gender: 'Man', pronouns: 'he/him' } }],
      limits: { maxTurns: 10, turnDeadlineMs: 60_000, actions: [...ACTION_TYPES] },
    },
    peers: mode === 'mindreaders' ? [bobPrivate] : [],
    events,
  };
}

/** Alice's view with a third participant, Cleo, added after Bob (a group of three). */
export function groupView(mode: 'agents' | 'mindreaders' = 'agents', protocol?: SeatWelcome['protocol'], events: TurnEvent[] = []): SeatView {
  const view = aliceView(mode, events);
  const welcome: SeatWelcome = {
    ...view.welcome,
    scenario: { ...view.welcome.scenario, seats: ['A', 'B', 'C'] },
    partners: [...view.welcome.partners, { seat: 'C', relationship: 1, profile: { name: 'Cleo Park' } }],
    ...(protocol ? { protocol } : {}),
  };
  return { ...view, welcome };
}

export function event(turn: number, seat: string, type: TurnEvent['action']['type'], argument: string): TurnEvent {
  return { v: 1, id: `e${turn}`, type: 'turn.event', turn, seat, action: { type, argument } };
}

export function turnRequest(turn: number, actions = [...ACTION_TYPES]): TurnRequest {
  return { v: 1, id: `r${turn}`, type: 'turn.request', turn, actions, deadlineMs: 60_000 };
}

/** The script writer's request for the same scenario. */
export function scriptRequest(maxTurns = 6, episodeId: string | undefined = 'ep-test-script'): ScriptRequest {
  const req: ScriptRequest = {
    v: 1,
    id: 's1',
    type: 'script.request',
    background: {
      scenario: { id: 'sc-roommates', kind: 'open', text: 'Two roommates talk in their shared kitchen late in the evening.', seats: ['A', 'B'] },
      seats: [
        {
          seat: 'A',
          profile: { name: 'Alice Chen', age: 24, occupation: 'nurse', secret: ALICE_SECRET },
          goal: ALICE_GOAL,
          hints: [{ kind: 'extra_info', text: ALICE_HINT }],
          task: null,
          partners: [{ seat: 'B', relationship: 3, profile: { name: 'Bob Lee' } }],
        },
        { ...bobPrivate, partners: [{ seat: 'A', relationship: 3, profile: { name: 'Alice Chen' } }] },
      ],
      mode: 'script',
    },
    limits: { maxTurns, turnDeadlineMs: 60_000, actions: [...ACTION_TYPES] },
  };
  if (episodeId !== undefined) req.episodeId = episodeId;
  return req;
}
