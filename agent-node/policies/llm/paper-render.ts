import { visibleText } from '../../quote-text.js';
import { keptLines } from './history-lines.js';
import { type Action, type Hint, type ProfileView, type TurnEvent } from '../../../protocol/index.js';
import { genderAdjective } from '../../../text/gender-word.js';
import { privateTag, type NameOf } from './render.js';
import { hintInParens } from '../../../text/hint-parens.js';

/**
 * Renderers for `--protocol paper`: the information of SOTOPIA's prompts (agent_vs_storyteller_v1) in
 * its order and format — `Scenario:`, `Participants: A and B`, one background and one goal line per
 * participant, `Turn #n: <Name> said: "…"` history lines — worded by Parley. Pure functions of what a
 * seat was sent; docs/fidelity.md lists every point against the paper and SOTOPIA's code.
 */

/**
 * One background as SOTOPIA's renderer lays it out: name, age, gender, occupation; pronouns; public
 * info; personality and values; the secret (only when the profile carries it: own, or a mindreader's
 * view of a partner). Fields the profile lacks are left out, so a partner's background at a low
 * relationship level is just what the relationship shows (possibly only the name).
 */
export function paperBackground(p: ProfileView, name: string): string {
  const who: string[] = [];
  if (p.age !== undefined) who.push(`${p.age} years old`);
  if (p.gender) who.push(genderAdjective(p.gender));
  if (p.occupation) who.push(p.occupation.trim().toLowerCase());
  const parts = [who.length ? `${name}, ${who.join(', ')}.` : `${name}.`];
  if (p.pronouns) parts.push(`Pronouns: ${p.pronouns.trim()}.`);
  if (p.publicInfo) parts.push(p.publicInfo.trim());
  if (p.personality) parts.push(`Personality and values: ${p.personality.trim()}`);
  if (p.secret) parts.push(`${firstName(name)}'s secret: ${p.secret.trim()}`);
  return parts.join(' ');
}

/** The first word of a full name (SOTOPIA labels the secret with the first name). */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}

/**
 * A goal as SOTOPIA shows it to its owner: the goal text with its hints inline, each hint's own text as
 * the data wrote it (SOTOPIA's hints carry their own "Extra information:" label; none is added).
 */
export function paperGoal(goal: string, hints: readonly Hint[]): string {
  return [goal.trim(), ...hints.map((h) => hintInParens(h))].filter(Boolean).join(' ') || '(no explicit goal)';
}


/**
 * One move as a history line, SOTOPIA's rendering per action type, every argument quoted and one line:
 * `Turn #n: Name said: "…"`, `Turn #n: Name [non-verbal communication] "…"`, `Turn #n: Name [action] "…"`,
 * `Turn #n: Name left the conversation`. A `none` renders as an empty turn, `Turn #n: ` with the space
 * after the colon, as SOTOPIA's environment leaves a move that did nothing out of its observation
 * (`Turn #{n}: {last_turn}` with `last_turn` empty).
 */
export function paperMove(turn: number, name: string, action: Action): string {
  const arg = `"${visibleText(action.argument)}"`;
  switch (action.type) {
    case 'speak':
      return `Turn #${turn}: ${name} said: ${arg}`;
    case 'non-verbal communication':
    case 'action':
      return `Turn #${turn}: ${name} [${action.type}] ${arg}`;
    case 'leave':
      return `Turn #${turn}: ${name} left the conversation`;
    default:
      return `Turn #${turn}: `;
  }
}

/** Each move's line, rendered once per event (history-lines.ts). */
const paperLine = keptLines(paperMove);

/**
 * The conversation so far, one line per turn, in turn order, a blank line between turns: SOTOPIA's agent
 * joined its observations, each ending in a line break, with another (`llm_agent.py`, `message_classes.py`
 * `Observation.to_natural_language`). A private move the seat received (it was its speaker or a recipient)
 * is marked after the speaker's name, as SOTOPIA's `[private to …]` prefix marks it:
 * `Turn #n: Ann [private to Bob] said: "…"`; the moves it did not receive are not in `events`.
 */
export function paperHistory(events: readonly TurnEvent[], nameOf: NameOf): string {
  return [...events].sort((a, b) => a.turn - b.turn).map((e) => paperLine(e, nameOf(e.seat) + privateTag(e.action, nameOf))).join('\n\n');
}
