import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ActionType, EpisodeRecord, Mode, Outcome, TurnRecord } from '../../protocol/index.js';
import { RunPaths, writeRunJson, writeRunScenarios, type RunJsonInput } from '../../run-dir/index.js';
import { fixtureRunJson } from '../../run-dir/testing/fixture.js';
import { Scenario, type ScenarioInput } from '../../scenarios/model.js';
import { fixtureLock } from '../../run-dir/testing/held-lock.js';

/**
 * Hand-made scenarios, episodes and run directories with known answers, for the evaluator's tests.
 * Small on purpose: every metric in them can be computed by hand.
 */

const character = (id: string, name: string) => ({ id, name, secret: `${name} has a secret` });

/** The fields every scenario here starts with: its id (also its environment id), the one pair, the source. */
const head = (id: string, subsets: string[], kind: ScenarioInput['kind']) => ({ id, envId: id, pairId: 'p1', source: 'test', subsets, kind });

/** MutualFriends: Ann (seat a) and Ben (seat b); the shared friend is "Jane Doe". */
export function mfScenario(id = 'mf-1', subsets: string[] = ['mutual_friends']): Scenario {
  const friends = [{ Name: 'Jane Doe', School: 'MIT' }, { Name: 'Tom Lee', School: 'CMU' }];
  const input: ScenarioInput = {
    ...head(id, subsets, 'mutual_friends'),
    narrative: [{ text: 'Two people find their mutual friend.', visibleTo: 'all' }],
    judgeOnly: 'The mutual friend is Jane Doe.',
    relationship: { level: 0 },
    seats: [
      { seat: 'a', character: character('c-ann', 'Ann'), goal: 'Find the mutual friend', secret: 'Ann has a secret', task: { kind: 'mutual_friends', attributes: ['Name', 'School'], friends } },
      { seat: 'b', character: character('c-ben', 'Ben'), goal: 'Find the mutual friend', secret: 'Ben has a secret', task: { kind: 'mutual_friends', attributes: ['Name', 'School'], friends: [friends[0]!] } },
    ],
    truth: { kind: 'mutual_friends', answer: { Name: 'Jane Doe', School: 'MIT' } },
  };
  return Scenario.parse(input);
}

/** Craigslist: buyer Cat (seat a, target $60) and seller Dan (seat b, target $100). */
export function clScenario(id = 'cl-1', subsets: string[] = ['craigslist_bargains']): Scenario {
  const item = { title: 'Bike', category: 'bike', listingPrice: 100, description: 'A red bike.' };
  const input: ScenarioInput = {
    ...head(id, subsets, 'craigslist'),
    narrative: [{ text: 'A bike is for sale.', visibleTo: 'all' }, { text: 'The seller needs cash fast.', visibleTo: ['b'] }],
    relationship: { level: 0 },
    seats: [
      { seat: 'a', character: character('c-cat', 'Cat'), goal: 'Buy the bike cheaply', secret: 'Cat has a secret', task: { kind: 'craigslist', role: 'buyer', target: 60, bottomline: null, item } },
      { seat: 'b', character: character('c-dan', 'Dan'), goal: 'Sell the bike dearly', secret: 'Dan has a secret', task: { kind: 'craigslist', role: 'seller', target: 100, bottomline: null, item } },
    ],
    truth: { kind: 'craigslist', title: 'Bike', category: 'bike', listingPrice: 100, description: 'A red bike.' },
  };
  return Scenario.parse(input);
}

/** An open (SOTOPIA-style) scenario with no task. */
export function openScenario(id = 'open-1', subsets: string[] = ['hard']): Scenario {
  return Scenario.parse({
    ...head(id, subsets, 'open'),
    narrative: [{ text: 'Two friends share a meal.', visibleTo: 'all' }],
    judgeOnly: 'Judge note: Eve plans to move away.',
    relationship: { level: 3, story: 'They grew up together.' },
    seats: [
      { seat: 'a', character: character('c-eve', 'Eve'), goal: 'Tell Fay you are moving', hints: [{ kind: 'strategy_hint', text: 'Be gentle.' }], secret: 'Eve has a secret' },
      { seat: 'b', character: character('c-fay', 'Fay'), goal: 'Ask Eve for a loan', secret: 'Fay has a secret' },
    ],
  } satisfies ScenarioInput);
}

/** A move: [seat, type, argument], or [seat, null] for a failed turn. */
export type MoveSpec = [string, ActionType, string] | [string, null];

export function turns(moves: readonly MoveSpec[]): TurnRecord[] {
  return moves.map((m, i) =>
    m[1] === null
      ? { turn: i, seat: m[0], action: null, error: { code: 'policy/failed', message: 'boom' }, atMs: i * 10 }
      : { turn: i, seat: m[0], action: { type: m[1], argument: m[2] }, atMs: i * 10 },
  );
}

export interface EpisodeSpec {
  scenario: Scenario;
  mode?: Mode;
  moves?: readonly MoveSpec[];
  outcome?: Outcome;
  status?: 'ok' | 'failed';
  repeat?: number;
  runId?: string;
  models?: [string, string];
  writer?: string;
  evaluation?: unknown;
}

/** An episode record of a scenario, with the given moves (outcome: no success unless given). */
export function episode(spec: EpisodeSpec): EpisodeRecord {
  const mode = spec.mode ?? 'agents';
  const s = spec.scenario;
  const outcome: Outcome =
    spec.outcome ??
    (s.kind === 'mutual_friends'
      ? { kind: 'mutual_friends', selections: { a: null, b: null }, answer: 'Jane Doe', success: false }
      : s.kind === 'craigslist'
        ? { kind: 'craigslist', deal: false, price: null, acceptedBy: null, success: false }
        : { kind: 'open', success: null });
  const models = spec.models ?? ['bot:a', 'bot:b'];
  const record: EpisodeRecord = {
    episodeId: `${spec.runId ?? 'run-1'}-${s.id}-${mode}-${spec.repeat ?? 0}`,
    runId: spec.runId ?? 'run-1',
    scenarioId: s.id,
    pairId: s.pairId,
    repeat: spec.repeat ?? 0,
    mode,
    seats: s.seats.map((seat, i) => ({
      seat: seat.seat,
      character: seat.character.name,
      pid: mode === 'script' ? null : 1000 + i,
      policy: mode === 'script' ? (spec.writer ?? 'bot:writer') : models[i]!,
      live: mode !== 'script',
      params: { temperature: 0.7 },
    })),
    turns: turns(spec.moves ?? []),
    termination: { reason: spec.status === 'failed' ? 'policy_error' : 'max_turns' },
    outcome,
    errors: spec.status === 'failed' ? [{ code: 'policy/failed', message: 'boom' }] : [],
    status: spec.status ?? 'ok',
    startedAt: '2024-01-01T00:00:00.000Z',
    durationMs: 100,
  };
  if (mode === 'script') record.scriptWriter = { pid: 999, policy: spec.writer ?? 'bot:writer' };
  // A test may plant an evaluation the schema refuses (to see the reader name its line): written as given.
  if (spec.evaluation !== undefined) record.evaluation = spec.evaluation as EpisodeRecord['evaluation'];
  return record;
}

/** Writes a run directory (run.json, scenarios.jsonl, episodes.jsonl) under the OS temp dir. */
export async function writeRunDir(scenarios: readonly Scenario[], episodes: readonly EpisodeRecord[], run: Partial<RunJsonInput> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-eval-'));
  const paths = new RunPaths(dir);
  writeRunJson(fixtureLock(paths), fixtureRunJson(episodes[0]?.runId ?? 'run-1', scenarios.map((s) => s.id), run));
  writeRunScenarios(fixtureLock(paths), scenarios);
  // Written whole, as a test states it (records the schema would refuse included).
  await writeFile(paths.episodesJsonl, episodes.map((e) => JSON.stringify(e) + '\n').join(''));
  return dir;
}
