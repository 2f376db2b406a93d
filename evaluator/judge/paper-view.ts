import { listNames } from './list-names.js';
import { type EpisodeRecord } from '../../protocol/index.js';
import { genderAdjective } from '../../text/gender-word.js';
import type { Character, Scenario, ScenarioSeat } from '../../scenarios/model.js';
import { actionText, privateMark, seatNames } from './transcript.js';
import { hintInParens } from '../../text/hint-parens.js';

/**
 * What SOTOPIA's judge read at tag `agent_vs_storyteller_v1` (envs/parallel.py, messages/message_classes.py,
 * envs/evaluators.py), used under `--judge-view paper`:
 * - the environment's background: the scenario, the two names, each character's bio, then both goals —
 *   in that order. The bio carries name, age, gender, occupation, pronouns, public info, the personality
 *   and values description and the secret; SOTOPIA rendered it for the environment whatever the
 *   relationship, so both secrets are in, and no relationship label or story, Big Five, MBTI, moral or
 *   Schwartz values or decision style is (those fields never reached its bio string).
 * - goals with their hint text inline and unlabelled (the environment rendered the hint tags' content).
 * - the conversation as the evaluator's history: a `Turn #k` line (from 1) before each agents-mode move,
 *   then `Name <action>`; "did nothing" moves dropped; a script has no turn lines.
 * The wording of the framing lines is Parley's own.
 */

/** `Name is a 35-year-old female chef. She/her pronouns. … Personality and values description: … Name's secrets: …`. */
export function paperBio(c: Character): string {
  const first = c.firstName ?? c.name.split(' ')[0] ?? c.name;
  // SOTOPIA's environment rendered the gender as an adjective (`Man` → `male`), as the seats' prompts do.
  const facts = [c.age !== undefined ? `${c.age}-year-old` : '', c.gender ? genderAdjective(c.gender) : '', c.occupation?.toLowerCase() ?? ''].filter(Boolean).join(' ');
  const parts = [facts ? `${c.name} is a ${facts}.` : c.name];
  if (c.pronouns) parts.push(`${c.pronouns} pronouns.`);
  if (c.publicInfo) parts.push(c.publicInfo);
  if (c.personality) parts.push(`Personality and values description: ${c.personality}`);
  parts.push(`${first}'s secrets: ${c.secret}`);
  return parts.join(' ');
}

/** A goal as SOTOPIA rendered it for its environment: the goal, then its hint texts inline and unlabelled. */
export function paperGoal(seat: ScenarioSeat): string {
  // In the parentheses the source put around a hint (SOTOPIA's renderer kept them as text); else as the data wrote it.
  return [seat.goal, ...seat.hints.map((h) => hintInParens(h, h.text))].filter((t) => t.trim() !== '').join(' ');
}

/**
 * The scenario text as SOTOPIA's environment rendered it: every narrative segment and the judge-only
 * text as plain sentences, with no note on who saw what (SOTOPIA's environment view showed none).
 */
function paperScenario(scenario: Scenario, judgeOnly: boolean): string {
  return [...scenario.narrative.map((s) => s.text), judgeOnly ? scenario.judgeOnly : ''].filter((t) => t.trim() !== '').join(' ');
}

/**
 * The context block SOTOPIA's judge read: scenario, participants, both bios, both goals.
 * `judgeOnly: false` (the naturalness question and the annotators' page) leaves out the judge-only text.
 */
export function paperBackground(scenario: Scenario, opts: { judgeOnly?: boolean } = {}): string {
  const lines = ['The context of this interaction:', `Scenario: ${paperScenario(scenario, opts.judgeOnly !== false)}`, `Participants: ${listNames(scenario.seats.map((s) => s.character.name))}`];
  for (const s of scenario.seats) lines.push(`${s.character.name}'s background: ${paperBio(s.character)}`);
  for (const s of scenario.seats) lines.push(`${s.character.name}'s goal: ${paperGoal(s)}`);
  return lines.join('\n');
}

/**
 * Two conversations side by side for the naturalness question (`compare`, `annotate`): the history form
 * without its `Turn #k` lines, which SOTOPIA's environment wrote before agents-mode moves only, so that
 * the layout cannot tell a script from an agents episode — only the conversation can. SOTOPIA's code has
 * no naturalness question; appendix E shows annotators the two interactions, nothing about their source.
 */
export function paperConversation(episode: EpisodeRecord, scenario: Scenario | undefined): string {
  return paperTranscript(episode, scenario, { turnLines: false });
}

/** The conversation in SOTOPIA's evaluator-history form (see the module comment). */
export function paperTranscript(episode: EpisodeRecord, scenario: Scenario | undefined, opts: { turnLines?: boolean } = {}): string {
  const names = seatNames(episode, scenario);
  // SOTOPIA's environment wrote a turn line before each agents-mode move; a script has none.
  const turnLines = episode.mode !== 'script' && opts.turnLines !== false;
  const lines: string[] = [];
  let turn = 0;
  for (const t of episode.turns) {
    if (!t.action) continue;
    if (turnLines) lines.push(`Turn #${++turn}`);
    // SOTOPIA's judge drops every message whose text contains "did nothing": a `none`, and a move whose words say it (issue 42).
    const text = actionText(t.action);
    if (t.action.type === 'none' || text.includes('did nothing')) continue;
    lines.push(`${names.get(t.seat) ?? t.seat} ${privateMark(t.action, names)}${text}`);
  }
  return lines.join('\n');
}
