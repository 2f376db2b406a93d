import { PRIVATE_ACTION_TYPES, type ScriptRequest } from '../../../protocol/index.js';
import { seatCapabilities } from '../../../simulation/index.js';
import type { ChatMessage } from '../../../llm/index.js';
import {
  quotedList,
  relationshipPhrase,
  renderActionGuide,
  renderHints,
  renderProfile,
  renderTask,
  renderTaskMoves,
  type NameOf,
} from './render.js';
import { fillTemplate, type Template } from './templates.js';

/** Character names of a script request's seats (the writer sees everyone in full). */
export function scriptNames(request: ScriptRequest): NameOf {
  const names = new Map(request.background.seats.map((s) => [s.seat, s.profile.name ?? `the person in seat ${s.seat}`]));
  return (seat) => names.get(seat) ?? `the person in seat ${seat}`;
}

/** Placeholder values for the script template, from the `script.request` frame only. */
export function scriptValues(request: ScriptRequest): Record<string, string | number> {
  const { background, limits } = request;
  const nameOf = scriptNames(request);
  const characters = background.seats
    .map((s) => {
      const lines = [
        `## Seat "${s.seat}": ${nameOf(s.seat)}`,
        renderProfile(s.profile, { includeSecret: true, style: request.protocol?.persona ?? 'prose' }),
        `Goal: ${s.goal.trim() || '(no explicit goal)'}`,
      ];
      if (s.hints.length) lines.push(renderHints(s.hints));
      const task = renderTask(s.task, `${nameOf(s.seat)}'s`);
      if (task) lines.push(task.replace(/^# /, '### '));
      return lines.join('\n');
    })
    .join('\n\n');
  // Each pair once, from the first seat's side (the partner view carries level and shared history).
  const relationship: string[] = [];
  const seen = new Set<string>();
  for (const s of background.seats) {
    for (const p of s.partners) {
      const key = [s.seat, p.seat].sort().join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
      relationship.push(relationshipPhrase(p.relationship, nameOf(p.seat), nameOf(s.seat)));
      if (p.sharedHistory) relationship.push(`Their history: ${p.sharedHistory.trim()}`);
    }
  }
  return {
    scenario: background.scenario.text.trim() || '(No description of the situation was given.)',
    characters,
    relationship: relationship.join('\n') || 'Not specified.',
    // A protocol without task moves (paper, with --script-format json) names none.
    task_moves: seatCapabilities(request.protocol).taskMoves ? renderTaskMoves(background.scenario.kind, limits.actions, true) : '',
    max_turns: limits.maxTurns,
    seats: quotedList(background.seats.map((s) => s.seat)),
    actions: quotedList(limits.actions),
    action_guide: renderActionGuide(limits.actions, background.seats.length),
    private_moves: privateTurnsGuide(request),
  };
}

/**
 * The `{{private_moves}}` line of a group's script (three or more seats): how a turn is made private
 * (`to`, seat ids). Empty for two seats, whose script prompt is as before.
 */
function privateTurnsGuide(request: ScriptRequest): string {
  const seats = request.background.seats.map((s) => s.seat);
  const types = request.limits.actions.filter((a) => PRIVATE_ACTION_TYPES.has(a));
  if (seats.length < 3 || types.length === 0) return '';
  return [
    `- "to" makes a turn private: the seat ids of the characters who hear it, chosen from ${quotedList(seats)} (not the speaker); only they and the speaker receive it, marked [private to …].`,
    `  Use [] for a turn everyone hears. Only ${quotedList(types)} turns can be private.`,
  ].join('\n');
}

/** The script writer's messages. */
export function scriptMessages(template: Template, request: ScriptRequest): ChatMessage[] {
  return fillTemplate(template, scriptValues(request));
}
