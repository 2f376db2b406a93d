import type { Action, EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';

/** Display name of each seat: the scenario character's name, else the record's character field. */
export function seatNames(episode: EpisodeRecord, scenario: Scenario | undefined): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of episode.seats) {
    const fromScenario = scenario?.seats.find((x) => x.seat === s.seat)?.character.name;
    names.set(s.seat, fromScenario ?? s.character);
  }
  return names;
}

/** One action in SOTOPIA's natural-language form (`said: "…"`, `[action] …`, `did nothing`, `left the conversation`). */
export function actionText(action: Action): string {
  switch (action.type) {
    case 'none':
      return 'did nothing';
    case 'speak':
      return `said: "${action.argument}"`;
    case 'non-verbal communication':
    case 'action':
      return `[${action.type}] ${action.argument}`;
    case 'leave':
      return 'left the conversation';
  }
}

/**
 * A private move's mark before its text, as SOTOPIA's `[private to …]` prefix marks it:
 * `[private to Bea Lin] said: "…"` (names, not a list literal). Empty for a public move.
 */
export function privateMark(action: Action, names: ReadonlyMap<string, string>): string {
  return action.to ? `[private to ${action.to.map((s) => names.get(s) ?? s).join(', ')}] ` : '';
}

/**
 * The full transcript: every move, in order, a private one marked with its recipients (the judge's view of
 * a group sees every whisper, and knows who could not hear it). Turns that failed (no action) are
 * not part of the conversation and are left out; `did nothing` turns are kept, as SOTOPIA's judge drops them
 * only to save tokens and their count matters for naturalness.
 */
export function renderTranscript(episode: EpisodeRecord, scenario: Scenario | undefined): string {
  const names = seatNames(episode, scenario);
  const lines: string[] = [];
  for (const t of episode.turns) {
    if (!t.action) continue;
    lines.push(`Turn #${t.turn}: ${names.get(t.seat) ?? t.seat} ${privateMark(t.action, names)}${actionText(t.action)}`);
  }
  return lines.length ? lines.join('\n') : '(no moves)';
}
