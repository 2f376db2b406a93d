import type { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { DIMENSION_NAMES } from '../dimensions.js';
import { isSotopia } from '../rubric/builtin.js';
import { readEvaluation } from '../evaluation.js';
import { actionText, renderTranscript, seatNames } from '../judge/transcript.js';
import type { RunDir } from '../run-dir.js';

/**
 * SOTOPIA's episode shape, for interoperability: the fields of `EpisodeLog` (environment, agents, tag,
 * models, messages, reasoning, rewards, rewards_prompt) together with those of SOTOPIA's JSONL export
 * (`episode_id, scenario, codename, agents_background, social_goals, social_interactions`).
 * `rewards[i]` is `[overall, {dimension: score, …, overall_score}]` like SOTOPIA's, or null for a seat
 * the judge could not score (SOTOPIA would store no such episode), so no failure is disguised as a score.
 */
export interface SotopiaEpisode {
  environment: string;
  agents: string[];
  tag: string;
  models: string[];
  messages: [string, string, string][][];
  reasoning: string;
  rewards: ([number, Record<string, number>] | null)[];
  rewards_prompt: string;
  episode_id: string;
  scenario: string;
  codename: string;
  agents_background: Record<string, string>;
  social_goals: Record<string, string>;
  social_interactions: string;
  /** Parley extras, prefixed so they never collide with SOTOPIA's fields. */
  parley: { runId: string; mode: string; pairId: string; repeat: number; status: string; outcome: unknown };
}

/** What a seat itself was told at the start (its own view, as in agents mode). */
function ownBackground(scenario: Scenario, seat: string): string {
  const s = scenario.seats.find((x) => x.seat === seat)!;
  const narrative = scenario.narrative.filter((n) => n.visibleTo === 'all' || n.visibleTo.includes(seat)).map((n) => n.text).join(' ');
  const others = scenario.seats.filter((x) => x.seat !== seat).map((x) => x.character.name).join(', ');
  return `Here is the context of this interaction:\nScenario: ${narrative}\nParticipants: ${s.character.name} and ${others}\n${s.character.name}'s goal: ${s.goal}`;
}

/** One episode in SOTOPIA's shape. */
export function toSotopia(episode: EpisodeRecord, scenario: Scenario | undefined): SotopiaEpisode {
  const names = seatNames(episode, scenario);
  // SOTOPIA's shape has SOTOPIA-EVAL's dimensions and their overall mean: another rubric's scores do not fit it.
  const primary = readEvaluation(episode.evaluation)?.judge;
  const judge = primary && isSotopia(primary.judge.rubric) ? primary : undefined;
  const messages: [string, string, string][][] = [];
  messages.push(episode.seats.map((s) => ['Environment', names.get(s.seat)!, scenario ? ownBackground(scenario, s.seat) : ''] as [string, string, string]));
  for (const t of episode.turns) {
    if (!t.action) continue;
    const actor = names.get(t.seat) ?? t.seat;
    const turn: [string, string, string][] = [[actor, 'Environment', actionText(t.action)]];
    for (const s of episode.seats) if (s.seat !== t.seat) turn.push([names.get(s.seat)!, 'Environment', 'did nothing']);
    messages.push(turn);
  }
  const rewards = episode.seats.map((s): [number, Record<string, number>] | null => {
    const j = judge?.seats[s.seat];
    if (!j?.ok) return null;
    const dims: Record<string, number> = {};
    for (const d of DIMENSION_NAMES) dims[d] = j.scores[d]?.score ?? 0;
    const overall = DIMENSION_NAMES.reduce((a, d) => a + dims[d]!, 0) / DIMENSION_NAMES.length;
    dims['overall_score'] = overall;
    return [overall, dims];
  });
  const reasoning = judge
    ? episode.seats
        .map((s, i) => {
          const j = judge.seats[s.seat];
          if (!j) return '';
          if (!j.ok) return `Agent ${i + 1} comments: evaluation error ${j.error.code}: ${j.error.message}`;
          return `Agent ${i + 1} comments:\n${DIMENSION_NAMES.map((d) => `${d}: ${j.scores[d]?.reasoning ?? ''}`).join('\n')}`;
        })
        .join('\n')
    : '';
  const agentsBackground: Record<string, string> = {};
  const goals: Record<string, string> = {};
  for (const s of scenario?.seats ?? []) {
    const c = s.character;
    agentsBackground[c.name] = [c.age !== undefined ? `${c.name} is ${c.age} years old.` : '', c.occupation ?? '', c.pronouns ? `${c.pronouns} pronouns.` : '', c.publicInfo ?? '', c.personality ? `Personality and values description: ${c.personality}` : '', `${c.firstName ?? c.name}'s secrets: ${c.secret}`]
      .filter(Boolean)
      .join(' ');
    goals[c.name] = s.goal;
  }
  const writerModel = episode.scriptWriter?.model ?? episode.scriptWriter?.policy;
  return {
    environment: scenario?.envId ?? episode.scenarioId,
    agents: scenario ? scenario.seats.map((s) => s.character.id) : episode.seats.map((s) => s.character),
    // SOTOPIA marks script-mode episodes with a `script` component in the underscore-separated tag.
    tag: `${episode.runId}_${episode.mode}`,
    models: [judge?.judge.model ?? judge?.judge.spec ?? '', ...episode.seats.map((s) => (episode.mode === 'script' ? writerModel : s.model ?? s.policy) ?? '')],
    messages,
    reasoning,
    rewards,
    rewards_prompt: judge ? `parley ${judge.judge.promptVersion} (${judge.judge.visibility} judge ${judge.judge.spec})` : '',
    episode_id: episode.episodeId,
    scenario: scenario ? scenario.narrative.filter((n) => n.visibleTo === 'all').map((n) => n.text).join(' ') : '',
    codename: scenario?.codename ?? scenario?.id ?? episode.scenarioId,
    agents_background: agentsBackground,
    social_goals: goals,
    social_interactions: renderTranscript(episode, scenario),
    parley: { runId: episode.runId, mode: episode.mode, pairId: episode.pairId, repeat: episode.repeat, status: episode.status, outcome: episode.outcome },
  };
}

/** All episodes of the runs as SOTOPIA JSONL. */
export function exportSotopia(runs: readonly RunDir[]): string {
  return runs.flatMap((r) => r.episodes.map((e) => JSON.stringify(toSotopia(e.record, r.scenarios.get(e.record.scenarioId))) + '\n')).join('');
}
