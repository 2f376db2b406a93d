import type { SeatView } from '../../policy.js';
import { buildBelief, friendNamed, termKey } from './mutual-friends/belief.js';
import { peerFriends, sharedFriends } from './mutual-friends/mindreaders.js';
import { friendName, nameAttribute } from './mutual-friends/phrases.js';
import { readNegotiation } from './craigslist/state.js';

/** What a belief probe asks for, as far as a bot can tell (built-in probes by what they ask; anything else is free text). */
export type BotProbeAsk = 'shared-friend' | 'reservation-price' | 'partner-goal' | 'partner-secret' | 'aware' | 'other';

/** A bot's answer when its state holds nothing on the question. */
export const BOT_DONT_KNOW = 'I do not know.';

/**
 * A bot's answer to a belief probe, read from the state it decides from (a pure function of its view, like
 * its moves): the MutualFriends bot names the friend it would act on (the partner's pick it knows, a name of its own the partner said, its own pick, else its best-ranked candidate) (the shared one outright when a
 * `peer.state` gave it the partner's list); the Craigslist bot guesses the partner's price from the
 * partner's target when it was told it, else the partner's latest offer; partner goal and secret come only
 * from a `peer.state`. A bot never thinks it is in an experiment.
 */
export function botProbeAnswer(view: SeatView, ask: BotProbeAsk): string {
  const own = view.welcome.self.task;
  const peer = view.peers[0] ?? null;
  switch (ask) {
    case 'shared-friend': {
      if (own?.kind !== 'mutual_friends') return BOT_DONT_KNOW;
      const nameAttr = nameAttribute(own.attributes);
      const told = peerFriends(view);
      const shared = told ? sharedFriends(own, told) : [];
      if (shared[0]) return friendName(shared[0], nameAttr);
      // In the order the bot acts on them (agents.ts): the partner's pick if we know that friend, a name of
      // ours the partner brought up, our own pick, else the best-ranked candidate.
      const b = buildBelief(view, own);
      const theirs = b.partnerSelection ? friendNamed(b, b.partnerSelection) : undefined;
      const named = b.task.friends.find((f) => b.nameAttr && b.has.has(termKey({ attr: b.nameAttr, value: friendName(f, b.nameAttr) })));
      const best = theirs ?? named ?? (b.mySelection ? friendNamed(b, b.mySelection) : undefined) ?? b.candidates[0];
      return best ? friendName(best, nameAttr) : BOT_DONT_KNOW;
    }
    case 'reservation-price': {
      if (own?.kind !== 'craigslist') return BOT_DONT_KNOW;
      const told = view.peers.find((p) => p.task?.kind === 'craigslist')?.task;
      if (told?.kind === 'craigslist') return String(told.target);
      const offers = readNegotiation(view).partnerOffers;
      return String(offers.at(-1) ?? own.item.listingPrice);
    }
    case 'partner-goal':
      return peer?.goal || BOT_DONT_KNOW;
    case 'partner-secret':
      return peer?.profile.secret || BOT_DONT_KNOW;
    case 'aware':
      return 'no';
    default:
      return BOT_DONT_KNOW;
  }
}
