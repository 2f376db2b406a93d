import type { Action, TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { ownMoveCount, ownTurnsLeft } from '../conversation.js';
import { botRng, seedOf } from '../seed.js';

/**
 * Open-ended (SOTOPIA social) scenarios: a polite conversational bot. It talks about its goal only in
 * general terms — it never quotes its goal, hints or secret — and leaves after a few turns.
 */
export function decideOpenChat(view: SeatView, request: TurnRequest): Action {
  const k = ownMoveCount(view);
  const style = botRng(seedOf('open-style', view.welcome.episodeId, view.welcome.seat));
  const leaveAt = style.next() < 0.5 ? 3 : 4;
  if (k >= leaveAt || ownTurnsLeft(view, request) <= 1) return { type: 'leave', argument: '' };
  const rng = botRng(seedOf('open', view.welcome.episodeId, view.welcome.seat, request.turn));
  const partner = view.welcome.partners[0]?.profile.name;
  const you = partner ? `, ${partner.split(' ')[0]}` : '';
  switch (k) {
    case 0:
      return { type: 'speak', argument: rng.pick([`Hi${you}! It's good to see you.`, `Hello${you}, thanks for taking a moment to talk.`, `Hey${you}! How have you been?`]) };
    case 1:
      return {
        type: 'speak',
        argument: rng.pick([
          "There's something I've been hoping to talk through with you. It matters to me, and I'd value your view.",
          "I wanted to bring something up that's been on my mind. I think we can sort it out together.",
          "Can I ask for your help with something? It's important to me, and I'd like us both to be happy with it.",
        ]),
      };
    case 2:
      return rng.next() < 0.3
        ? { type: 'non-verbal communication', argument: 'nods thoughtfully and smiles' }
        : { type: 'speak', argument: rng.pick(["I hear you. Maybe there's a way that works for both of us.", "That's fair. Let's find something we're both comfortable with.", "Thank you for being open with me — I appreciate it."]) };
    default:
      return { type: 'speak', argument: rng.pick(["Thanks for talking this through with me. I should get going soon.", "I'm glad we talked. Let's keep in touch."]) };
  }
}
