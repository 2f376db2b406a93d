import type { TaskPrivate } from '../../protocol/index.js';
import { RELATIONSHIP_NAMES } from '../../protocol/index.js';
import { gameCardLines } from '../../simulation/games/card.js';
import { listNames } from './list-names.js';
import type { Character, Scenario, ScenarioSeat } from '../../scenarios/model.js';

/**
 * The scenario as each judge variant sees it.
 * - full (SOTOPIA's judge): every narrative segment, every profile with its secret, both goals with
 *   their private hints, private task data, and the judge-only text.
 * - blind: the public narrative only, the participants' names, and the evaluated seat's own goal.
 */

function profileText(c: Character): string {
  const parts: string[] = [];
  const facts = [c.age !== undefined ? `${c.age} years old` : '', c.gender ?? '', c.occupation ?? ''].filter(Boolean).join(', ');
  if (facts) parts.push(`${facts}.`);
  if (c.pronouns) parts.push(`Pronouns: ${c.pronouns}.`);
  if (c.publicInfo) parts.push(c.publicInfo);
  if (c.personality) parts.push(`Personality and values: ${c.personality}`);
  if (c.bigFive) parts.push(`Big Five: ${c.bigFive}.`);
  if (c.moralValues?.length) parts.push(`Moral values: ${c.moralValues.join(', ')}.`);
  if (c.schwartzValues?.length) parts.push(`Schwartz values: ${c.schwartzValues.join(', ')}.`);
  if (c.decisionStyle) parts.push(`Decision-making style: ${c.decisionStyle}.`);
  if (c.mbti) parts.push(`MBTI: ${c.mbti}.`);
  parts.push(`Secret: ${c.secret || '(none)'}`);
  return parts.join(' ');
}

function taskText(task: TaskPrivate | null): string | null {
  if (!task) return null;
  if (task.kind === 'craigslist') {
    const bottom = task.bottomline !== null ? `, walk-away price $${task.bottomline}` : '';
    return `${task.role} of "${task.item.title}" (listed at $${task.item.listingPrice}); target price $${task.target}${bottom}. Item as this side knows it: ${task.item.description}`;
  }
  if (task.kind === 'auction') {
    return `${task.role} of "${task.item.title}"; ${task.role === 'seller' ? 'reserve price' : 'valuation'} $${task.valuation}. Item: ${task.item.description}`;
  }
  if (task.kind === 'split') return `splitting ${task.total} ${task.resource}; hopes for ${task.want}, votes for no less than ${task.minimum}`;
  if (task.kind === 'game') return gameCardLines(task).join(' ');
  const rows = task.friends.map((f) => task.attributes.map((a) => f[a] ?? '').join(' | '));
  return `friend list (${task.attributes.join(' | ')}):\n${rows.map((r) => `  - ${r}`).join('\n')}`;
}

function narrative(scenario: Scenario, names: Map<string, string>, publicOnly: boolean): string {
  return scenario.narrative
    .filter((s) => !publicOnly || s.visibleTo === 'all')
    .map((s) => (s.visibleTo === 'all' ? s.text : `${s.text} (known only to ${s.visibleTo.map((id) => names.get(id) ?? id).join(', ')})`))
    .join('\n');
}

function relationshipText(scenario: Scenario): string {
  const text = (r: { level: number; story?: string | undefined }) => {
    const name = (RELATIONSHIP_NAMES[r.level] ?? String(r.level)).replace(/_/g, ' ');
    return r.story ? `${name}. ${r.story}` : name;
  };
  const base = text(scenario.relationship);
  if (!scenario.relationships?.length) return base;
  // Groups: the pairs that differ, named, after the relationship of every other pair.
  const nameOf = (seat: string) => scenario.seats.find((s) => s.seat === seat)?.character.name ?? seat;
  return [base, ...scenario.relationships.map((r) => `${nameOf(r.seats[0])} and ${nameOf(r.seats[1])}: ${text(r)}`)].join('; ');
}

function goalText(seat: ScenarioSeat, withHints: boolean): string {
  const hints = withHints && seat.hints.length ? ` (private hints: ${seat.hints.map((h) => h.text).join(' ')})` : '';
  return `${seat.goal}${hints}`;
}

function participants(scenario: Scenario): string {
  return listNames(scenario.seats.map((s) => `${s.character.name} (seat "${s.seat}")`));
}

/** The omniscient background SOTOPIA's judge reads (`judgeOnly: false` leaves out the evaluator-only text). */
export function fullBackground(scenario: Scenario, opts: { judgeOnly?: boolean } = {}): string {
  const names = new Map(scenario.seats.map((s) => [s.seat, s.character.name]));
  const lines = [`Scenario: ${narrative(scenario, names, false)}`, `Participants: ${participants(scenario)}`, `Relationship: ${relationshipText(scenario)}`];
  for (const s of scenario.seats) {
    lines.push(`${s.character.name}'s background: ${profileText(s.character)}`);
    lines.push(`${s.character.name}'s goal: ${goalText(s, true)}`);
    const task = taskText(s.task);
    if (task) lines.push(`${s.character.name}'s private task data: ${task}`);
  }
  if (scenario.judgeOnly && opts.judgeOnly !== false) lines.push(`Information for the evaluator only (no participant saw it): ${scenario.judgeOnly}`);
  return lines.join('\n');
}

/** The blind judge's background: public scenario text, names, and the evaluated seat's own goal only. */
export function blindBackground(scenario: Scenario, seat: string): string {
  const names = new Map(scenario.seats.map((s) => [s.seat, s.character.name]));
  const own = scenario.seats.find((s) => s.seat === seat);
  const lines = [`Scenario: ${narrative(scenario, names, true) || '(no public description)'}`, `Participants: ${participants(scenario)}`];
  if (own) lines.push(`${own.character.name}'s goal: ${own.goal}`);
  return lines.join('\n');
}
