import { gameCardLines } from '../../../simulation/games/card.js';
import {
  RELATIONSHIP_NAMES,
  type Action,
  type ActionType,
  type Hint,
  type PartnerView,
  type PeerPrivateState,
  type ProfileView,
  type TaskKind,
  type TaskPrivate,
  type TurnEvent,
} from '../../../protocol/index.js';
import { quotePartnerText } from '../../quote-text.js';
import { keptLines } from './history-lines.js';

/**
 * Text renderers for prompts. Pure functions of what a seat was sent; the only inputs are protocol
 * view types, so nothing outside the seat's view can reach a prompt.
 */

/** How a seat is called in prompts: the character's name when known, else by seat. */
export type NameOf = (seat: string) => string;

/** How a profile is written: sentences, or one labelled line per field (`--persona`). */
export type PersonaStyle = 'prose' | 'fields';

/** A profile, only with the fields present (a partner's view may have few): as prose, or as labelled fields. */
export function renderProfile(p: ProfileView, opts: { includeSecret: boolean; style?: PersonaStyle }): string {
  if (opts.style === 'fields') return renderProfileFields(p, opts.includeSecret);
  const facts = [
    p.age !== undefined ? `age ${p.age}` : '',
    p.gender ? `gender: ${p.gender.toLowerCase()}` : '',
    p.occupation ? `occupation: ${p.occupation}` : '',
  ].filter(Boolean);
  const sentences: string[] = [];
  if (p.name || facts.length) sentences.push(`${p.name ?? 'This person'}${facts.length ? ` (${facts.join(', ')})` : ''}.`);
  if (p.pronouns) sentences.push(`Pronouns: ${p.pronouns}.`);
  if (p.publicInfo) sentences.push(p.publicInfo.trim());
  const traits: string[] = [];
  if (p.personality) traits.push(p.personality.trim());
  if (p.bigFive) traits.push(`Big Five: ${p.bigFive}.`);
  if (p.mbti) traits.push(`MBTI: ${p.mbti}.`);
  if (p.moralValues?.length) traits.push(`Moral values: ${p.moralValues.join(', ')}.`);
  if (p.schwartzValues?.length) traits.push(`Values (Schwartz): ${p.schwartzValues.join(', ')}.`);
  if (p.decisionStyle) traits.push(`Decision-making style: ${p.decisionStyle}.`);
  if (traits.length) sentences.push(`Personality and values: ${traits.join(' ')}`);
  if (opts.includeSecret && p.secret) sentences.push(`Secret: ${p.secret.trim()}`);
  return sentences.length ? sentences.join(' ') : 'Nothing is known about this person.';
}

/** The same facts as renderProfile's prose, one `Label: value` line each, in the same order. */
function renderProfileFields(p: ProfileView, includeSecret: boolean): string {
  const fields: Array<[string, string | number | undefined]> = [
    ['Name', p.name],
    ['Age', p.age],
    ['Gender', p.gender?.toLowerCase()],
    ['Occupation', p.occupation],
    ['Pronouns', p.pronouns],
    ['Public information', p.publicInfo?.trim()],
    ['Personality', p.personality?.trim()],
    ['Big Five', p.bigFive],
    ['MBTI', p.mbti],
    ['Moral values', p.moralValues?.length ? p.moralValues.join(', ') : undefined],
    ['Values (Schwartz)', p.schwartzValues?.length ? p.schwartzValues.join(', ') : undefined],
    ['Decision-making style', p.decisionStyle],
    ['Secret', includeSecret ? p.secret?.trim() : undefined],
  ];
  const lines = fields.filter(([, v]) => v !== undefined && v !== '').map(([label, v]) => `- ${label}: ${String(v)}`);
  return lines.length ? lines.join('\n') : 'Nothing is known about this person.';
}

const HINT_LABEL: Record<Hint['kind'], string> = {
  extra_info: 'Extra information',
  strategy_hint: 'Strategy hint',
  clarification_hint: 'Clarification',
};

/** Private goal hints, one per line; a hint that already starts with its label (SOTOPIA's do) is not labelled twice. */
export function renderHints(hints: Hint[]): string {
  return hints
    .map((h) => {
      const text = h.text.trim();
      const label = HINT_LABEL[h.kind];
      return text.toLowerCase().startsWith(`${label.toLowerCase()}:`) ? text : `${label}: ${text}`;
    })
    .join('\n');
}

/**
 * A relationship level in words: from the viewer's side ("You and Bob are friends."), or, with
 * `selfName`, in the third person for the script writer ("Alice and Bob are friends.").
 */
export function relationshipPhrase(level: number, partnerName: string, selfName?: string): string {
  const pair = selfName ? `${selfName} and ${partnerName}` : `You and ${partnerName}`;
  switch (RELATIONSHIP_NAMES[level]) {
    case 'stranger':
      return `${pair} are strangers: ${selfName ? 'they' : 'you'} have never met.`;
    case 'know_by_name':
      return selfName ? `${selfName} knows ${partnerName} by name only.` : `You know ${partnerName} by name only.`;
    case 'acquaintance':
      return `${pair} are acquaintances.`;
    case 'friend':
      return `${pair} are friends.`;
    case 'romantic':
      return `${pair} are in a romantic relationship.`;
    case 'family':
      return `${pair} are family.`;
    default:
      return `The relationship between ${selfName ?? 'you'} and ${partnerName} is unspecified.`;
  }
}

/** Names as a sentence lists them: "A", "A and B", "A, B and C". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** How many participants, in words ("two", "three"), as the prompts say it. */
export const countWord = (n: number): string => NUMBER_WORDS[n] ?? String(n);

/**
 * A group's who-is-here lines (three or more seats): everyone in turn order, and the group's leave rule.
 * Empty for two seats, whose prompts say "the other person" as they always did.
 */
export function groupLines(seats: readonly string[], self: string, nameOf: NameOf): string {
  if (seats.length < 3) return '';
  const names = seats.map((s) => (s === self ? `${nameOf(s)} (you)` : nameOf(s)));
  return [
    `Participants, in turn order: ${listNames(names)}.`,
    'Turns go round in that order. Someone who leaves takes no more turns; the conversation goes on until all but one participant have left.',
  ].join('\n');
}

/** How the agent prompt speaks of the others: a pair's words exactly as before, a group's in the plural. */
export function companyWords(seats: number): { company: string; others: string; partners_heading: string } {
  if (seats <= 2) return { company: 'another person', others: 'the other person', partners_heading: 'The other participant' };
  return { company: `${countWord(seats - 1)} other people`, others: 'the others', partners_heading: 'The other participants' };
}

/** The partners as the relationship shows them (never their secret, goal or hints); a group is listed first. */
export function renderPartners(partners: PartnerView[], nameOf: NameOf, group = '', style: PersonaStyle = 'prose'): string {
  if (partners.length === 0) return 'There is no one else.';
  return (group ? `${group}\n\n` : '') + partners
    .map((p) => {
      const name = nameOf(p.seat);
      const lines = [relationshipPhrase(p.relationship, name)];
      const known = { ...p.profile, secret: undefined };
      if (Object.values(known).some((v) => v !== undefined)) lines.push(`What you know about them:${style === 'fields' ? '\n' : ' '}${renderProfile(known, { includeSecret: false, style })}`);
      else lines.push('You know nothing else about them.');
      if (p.sharedHistory) lines.push(`Your history together: ${p.sharedHistory.trim()}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

/**
 * The partners' goals: what arrived in `peer.state` frames (mindreaders mode, or a field the scenario
 * shares), else "unknown". This is where mindreaders and agents differ.
 */
export function renderPartnerGoals(partners: PartnerView[], peers: PeerPrivateState[], nameOf: NameOf, style: PersonaStyle = 'prose'): string {
  if (partners.length === 0 && peers.length === 0) return 'There is no one else.';
  const seats = [...new Set([...partners.map((p) => p.seat), ...peers.map((p) => p.seat)])];
  return seats
    .map((seat) => {
      const name = nameOf(seat);
      const peer = peers.find((p) => p.seat === seat);
      if (!peer) return `${name}'s goal is unknown to you.`;
      const lines: string[] = [];
      lines.push(peer.goal.trim() ? `${name}'s goal: ${peer.goal.trim()}` : `${name}'s goal is unknown to you.`);
      if (peer.hints.length) lines.push(renderHints(peer.hints));
      if (peer.profile.secret) lines.push(`${name}'s secret: ${peer.profile.secret.trim()}`);
      const profile = { ...peer.profile, secret: undefined };
      if (Object.values(profile).some((v) => v !== undefined)) lines.push(`${name}'s background:${style === 'fields' ? '\n' : ' '}${renderProfile(profile, { includeSecret: false, style })}`);
      if (peer.task) lines.push(`\n${renderTask(peer.task, `${name}'s`)}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

const money = (n: number) => `$${Number.isInteger(n) ? n : n.toFixed(2)}`;

/** Private task data: a MutualFriends friend list, or a Craigslist role, item and prices. */
export function renderTask(task: TaskPrivate | null, owner = 'Your'): string {
  if (!task) return '';
  if (task.kind === 'mutual_friends') {
    const rows = task.friends.map((f, i) => `${i + 1}. ${task.attributes.map((a) => `${a}: ${f[a] ?? '?'}`).join('; ')}`);
    return [`# ${owner} friend list`, ...rows].join('\n');
  }
  if (task.kind === 'auction') {
    const lines = [`# ${owner} auction`, `Role: ${task.role}.`, `Item: ${task.item.title}.`];
    if (task.item.description.trim()) lines.push(`Description: ${task.item.description.trim()}`);
    lines.push(task.role === 'seller' ? `Reserve price (the least to sell for): ${money(task.valuation)}.` : `Valuation (the most the item is worth to this buyer): ${money(task.valuation)}.`);
    return lines.join('\n');
  }
  if (task.kind === 'game') return [`# ${owner} game card`, ...gameCardLines(task)].join('\n');
  if (task.kind === 'split') {
    return [
      `# ${owner} share`,
      `Resource to split: ${task.total} ${task.resource}.`,
      `Hoped-for share: ${task.want}. Least share worth voting for: ${task.minimum}.`,
    ].join('\n');
  }
  const lines = [
    `# ${owner} deal`,
    `Role: ${task.role}.`,
    `Item: ${task.item.title} (${task.item.category}), listed at ${money(task.item.listingPrice)}.`,
  ];
  if (task.item.description.trim()) lines.push(`Description: ${task.item.description.trim()}`);
  lines.push(`Target price: ${money(task.target)}.`);
  if (task.bottomline !== null) lines.push(`Walk-away price: ${money(task.bottomline)}.`);
  return lines.join('\n');
}

/**
 * Moves made with an argument, per task kind (protocol/moves.ts): the section's title, what the arguments
 * are for (after "one of these arguments"), and one line per argument. A kind not named here makes the
 * deal's moves.
 */
const ARGUMENT_MOVES: Record<'auction' | 'split' | 'deal', { title: string; purpose: string; lines: readonly string[] }> = {
  auction: {
    title: '# Bidding',
    purpose: '',
    lines: [
      '- a buyer: "offer $<price>" bids that price, for example "offer $120";',
      '- the seller: "accept" sells to the highest bid so far; "quit" ends the auction without a sale;',
      '- a buyer who is out of the bidding may leave.',
    ],
  },
  split: {
    title: '# Proposing and voting',
    purpose: '',
    lines: [
      '- "propose <share>/<share>/…" proposes a split, one whole share per participant in the order the participants are listed, adding up to the total, for example "propose 40/30/30";',
      '- "accept" votes for the latest proposal; "reject" votes against it.',
      'A proposal passes once more than half of the participants back it (its proposer counts as backing it).',
    ],
  },
  deal: {
    title: '# Making a deal',
    purpose: ' to act on the deal',
    lines: ['- "offer $<price>" makes a binding offer, for example "offer $120";', `- "accept" accepts the other side's latest offer;`, '- "reject" rejects it;', '- "quit" walks away without a deal.'],
  },
};

/** MutualFriends has one move, the answer: worded for a seat, or for the script writer who answers for the characters. */
const SELECT_MOVE = {
  seat: [
    '# Submitting your answer',
    'You and the other person each have a list of friends, and exactly one friend is on both lists. Find that friend by talking.',
    'When you are sure, answer with action_type "action" and argument "select <the friend\'s name>", for example "select Jane Doe".',
  ],
  writer: [
    '# Submitting answers',
    'Each character has a list of friends, and exactly one friend is on both lists; the characters find that friend by talking.',
    'When a character is sure, write a turn with action_type "action" and argument "select <the friend\'s name>", for example "select Jane Doe".',
  ],
};

/**
 * How to make the explicit task moves (protocol/moves.ts), when actions are allowed. `writer` words
 * it for the script writer, who makes the moves on the characters' behalf.
 */
export function renderTaskMoves(kind: TaskKind, actions: readonly ActionType[], writer = false): string {
  if (kind === 'open' || !actions.includes('action')) return '';
  if (kind === 'mutual_friends') return (writer ? SELECT_MOVE.writer : SELECT_MOVE.seat).join('\n');
  const moves = ARGUMENT_MOVES[kind === 'auction' || kind === 'split' ? kind : 'deal'];
  const whose = writer ? ' (for the character whose turn it is)' : '';
  return [moves.title, `Use action_type "action" with one of these arguments${moves.purpose}${whose}:`, ...moves.lines].join('\n');
}

const ACTION_MEANING: Record<ActionType, string> = {
  none: 'do nothing this turn',
  speak: 'say something (the argument is the words said)',
  'non-verbal communication': 'a gesture or expression, such as smiling or nodding (the argument describes it)',
  action: 'a physical action (the argument describes it)',
  leave: 'leave the conversation (it ends)',
};

/** In a group a leave ends the conversation only for the one who leaves (until one participant is left). */
const GROUP_LEAVE_MEANING = 'leave the conversation (you take no more turns; the others go on until only one is left)';

/** The allowed action types with what each means; `seats` (three or more: a group) words `leave` for a group. */
export function renderActionGuide(actions: readonly ActionType[], seats = 2): string {
  return actions.map((a) => `- "${a}": ${a === 'leave' && seats > 2 ? GROUP_LEAVE_MEANING : ACTION_MEANING[a]}`).join('\n');
}

/** Quoted, comma-separated list (the format the prompts and the fake server share). */
export function quotedList(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/**
 * The mark a private move carries in a history line, after the speaker's name: ` [private to Bob, Carol]`
 * (SOTOPIA's `[private to …]`, with names as the prompt calls them). Empty for a public move.
 */
export function privateTag(action: Action, nameOf: NameOf): string {
  return action.to === undefined ? '' : ` [private to ${action.to.map(nameOf).join(', ')}]`;
}

/** One move as a line of the conversation; `name` already carries a private move's tag (`privateTag`). */
export function renderMove(turn: number, name: string, action: Action): string {
  const arg = action.argument.trim();
  switch (action.type) {
    case 'speak':
      return `Turn #${turn}: ${name} said: ${quotePartnerText(arg)}`;
    // Every action type quoted, newlines shown as escapes: partner text never starts a prompt line.
    case 'non-verbal communication':
      return `Turn #${turn}: ${name} [non-verbal communication] ${quotePartnerText(arg)}`;
    case 'action':
      return `Turn #${turn}: ${name} [action] ${quotePartnerText(arg)}`;
    case 'leave':
      return `Turn #${turn}: ${name} left the conversation.`;
    default:
      return `Turn #${turn}: ${name} did nothing.`;
  }
}

/** Each move's line, rendered once per event (history-lines.ts). */
const moveLine = keptLines(renderMove);

/** The conversation so far. */
export function renderHistory(events: TurnEvent[], nameOf: NameOf): string {
  if (events.length === 0) return '(Nothing has been said yet; the conversation starts now.)';
  return [...events].sort((a, b) => a.turn - b.turn).map((e) => moveLine(e, nameOf(e.seat) + privateTag(e.action, nameOf))).join('\n');
}
