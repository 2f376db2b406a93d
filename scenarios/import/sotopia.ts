import path from 'node:path';
import { RelationshipLevel } from '../../protocol/index.js';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { Scenario, type Character, type ScenarioSeat, type TaskTruth } from '../model.js';
import { parseJsonDocument, readJsonl, readText, validate, type Located } from './read-json.js';
import { extractCraigslist } from './sotopia-craigslist.js';
import { extractMutualFriends } from './sotopia-mutual-friends.js';
import { SotopiaAgent, SotopiaCombo, SotopiaEnvIds, SotopiaEnvironment, SotopiaRelationship } from './sotopia-schemas.js';
import { absent, splitGoal, splitScenario, unescapeQuotes } from './sotopia-text.js';

/** File names of a SOTOPIA profiles directory (sotopia-space `profiles/` plus sotopia-pi's env_ids.json). */
export const SOTOPIA_FILES = {
  environments: 'environment_profiles.jsonl',
  agents: 'agent_profiles.jsonl',
  relationships: 'relationship_profiles.jsonl',
  combos: 'env_agent_combo_storages.jsonl',
  envIds: 'env_ids.json',
} as const;

/** What an import read and produced; the CLI prints these counts. */
export interface SotopiaImport {
  scenarios: Scenario[];
  counts: { environments: number; characters: number; relationships: number; pairs: number };
}

/**
 * Imports SOTOPIA's profiles into Parley scenario records: one record per (environment, character pair)
 * combo — 90 × 5 = 450 for the benchmark. Goal hints become owner-only `hints`, `<p viewer="environment">`
 * spans become `judgeOnly`, MutualFriends and Craigslist environments get task data and truth.
 * Every row is validated; the first problem throws a ScenarioError naming file, line and field.
 */
export async function importSotopia(dir: string): Promise<SotopiaImport> {
  const file = (name: string) => path.join(dir, name);
  const envs = await readJsonl(file(SOTOPIA_FILES.environments), SotopiaEnvironment);
  const agents = await readJsonl(file(SOTOPIA_FILES.agents), SotopiaAgent);
  const rels = await readJsonl(file(SOTOPIA_FILES.relationships), SotopiaRelationship);
  const combos = await readJsonl(file(SOTOPIA_FILES.combos), SotopiaCombo);
  const envIdsFile = file(SOTOPIA_FILES.envIds);
  const envIds = validate(SotopiaEnvIds, parseJsonDocument(await readText(envIdsFile), envIdsFile), { file: envIdsFile });
  const hard = new Set(envIds.sotopia_hard_env_id ?? []);

  const envById = uniqueIndex(envs, (e) => e.env_id, 'env_id');
  const charById = new Map<string, Character>();
  for (const a of agents) {
    if (charById.has(a.value.agent_id)) throw dup(a, 'agent_id', a.value.agent_id);
    charById.set(a.value.agent_id, toCharacter(a.value));
  }
  const envLevel = new Map<string, number>();
  for (const e of envs) envLevel.set(e.value.env_id, relationshipLevel(e.value.relationship, e));
  const stories = new Map<string, { level: number; story: string | undefined }[]>();
  for (const r of rels) {
    const level = relationshipLevel(r.value.relationship, r);
    for (const [field, id] of [['agent1_id', r.value.agent1_id], ['agent2_id', r.value.agent2_id]] as const) {
      if (!charById.has(id)) throw new ScenarioError(ScenarioErrorCode.UnknownReference, `unknown agent '${id}'`, { file: r.file, line: r.line, field });
    }
    const key = pairKey(r.value.agent1_id, r.value.agent2_id);
    const story = absent(r.value.background_story);
    stories.set(key, [...(stories.get(key) ?? []), { level, story: story && unescapeQuotes(story) }]);
  }

  const seenCombo = new Set<string>();
  const scenarios: Scenario[] = [];
  for (const c of combos) {
    const combo = c.value;
    if (seenCombo.has(combo.combo_id)) throw dup(c, 'combo_id', combo.combo_id);
    seenCombo.add(combo.combo_id);
    const env = envById.get(combo.env_id);
    if (!env) throw new ScenarioError(ScenarioErrorCode.UnknownReference, `unknown environment '${combo.env_id}'`, { file: c.file, line: c.line, field: 'env_id' });
    if (combo.agent_ids.length !== env.value.agent_goals.length) {
      throw new ScenarioError(ScenarioErrorCode.InvalidField, `${combo.agent_ids.length} agents for ${env.value.agent_goals.length} goals`, { file: c.file, line: c.line, field: 'agent_ids' });
    }
    const characters = combo.agent_ids.map((id, i) => {
      const ch = charById.get(id);
      if (!ch) throw new ScenarioError(ScenarioErrorCode.UnknownReference, `unknown agent '${id}'`, { file: c.file, line: c.line, field: `agent_ids.${i}` });
      return ch;
    });
    const level = envLevel.get(combo.env_id)!;
    // The pair's relationship profile at the environment's level carries their shared history.
    const story = (stories.get(pairKey(combo.agent_ids[0]!, combo.agent_ids[1]!)) ?? []).find((s) => s.level === level)?.story;
    scenarios.push(buildScenario(env, combo, characters, level, story, hard.has(combo.env_id)));
  }
  return {
    scenarios,
    counts: { environments: envs.length, characters: agents.length, relationships: rels.length, pairs: combos.length },
  };
}

function buildScenario(
  env: Located<SotopiaEnvironment>, combo: SotopiaCombo, characters: Character[], level: number,
  story: string | undefined, isHard: boolean,
): Scenario {
  const e = env.value;
  const { narrative, judgeOnly } = splitScenario(e.scenario);
  const goals = e.agent_goals.map(splitGoal);
  const where = { file: env.file, line: env.line };
  let kind: Scenario['kind'] = 'open';
  let tasks: (ScenarioSeat['task'])[] = goals.map(() => null);
  let truth: TaskTruth | null = null;

  if (e.source === 'mutual_friends') {
    const mf = extractMutualFriends(goals.map((g) => g.hints), judgeOnly);
    if (!mf.ok) throw new ScenarioError(ScenarioErrorCode.InvalidField, `MutualFriends scenario: ${mf.detail}`, { ...where, field: mf.field });
    kind = 'mutual_friends';
    tasks = mf.value.sides;
    truth = { kind: 'mutual_friends', answer: mf.value.answer };
  } else if (e.source === 'craigslist_bargains') {
    const cl = extractCraigslist(narrative, goals.map((g) => g.goal));
    if (!cl.ok) throw new ScenarioError(ScenarioErrorCode.InvalidField, `Craigslist scenario: ${cl.detail}`, { ...where, field: cl.field });
    kind = 'craigslist';
    tasks = cl.value.seats;
    const { title, category, listingPrice, description } = cl.value;
    truth = { kind: 'craigslist', title, category, listingPrice, description };
  }

  const subsets = [e.source, ...(isHard ? ['hard'] : [])].filter((s) => s !== '');
  const seats: ScenarioSeat[] = characters.map((character, i) => ({
    seat: `agent${i + 1}`,
    character,
    goal: goals[i]!.goal,
    hints: goals[i]!.hints,
    secret: character.secret,
    task: tasks[i] ?? null,
    shares: [],
  }));
  const record = Scenario.safeParse({
    id: combo.combo_id,
    envId: e.env_id,
    pairId: combo.combo_id,
    codename: e.codename || undefined,
    source: 'sotopia',
    subsets,
    kind,
    narrative: [{ text: narrative, visibleTo: 'all' }],
    judgeOnly,
    relationship: story !== undefined ? { level, story } : { level },
    seats,
    truth,
  });
  if (!record.success) {
    const issue = record.error.issues[0]!;
    throw new ScenarioError(ScenarioErrorCode.InvalidField, `does not make a valid scenario (${issue.message})`, { ...where, field: issue.path.join('.') });
  }
  return record.data;
}

/** SOTOPIA relationship codes "0".."5"; anything else is an error naming the row's `relationship` field. */
function relationshipLevel(code: string | number, at: Located<unknown>): number {
  const n = typeof code === 'number' ? code : /^\s*\d+\s*$/.test(code) ? Number(code) : NaN;
  const parsed = RelationshipLevel.safeParse(n);
  if (!parsed.success) {
    throw new ScenarioError(ScenarioErrorCode.UnknownRelationship, `unknown relationship code ${JSON.stringify(code)} (expected 0..5)`, { file: at.file, line: at.line, field: 'relationship' });
  }
  return parsed.data;
}

function toCharacter(a: SotopiaAgent): Character {
  const text = (v: string | undefined) => (v === undefined ? undefined : absent(unescapeQuotes(v)));
  const list = (v: string[] | undefined) => v?.map((x) => x.trim()).filter((x) => x !== '' && absent(x) !== undefined);
  const age = typeof a.age === 'number' ? a.age : a.age !== undefined && /^\d+$/.test(a.age.trim()) ? Number(a.age) : undefined;
  const character: Character = {
    id: a.agent_id,
    name: `${a.first_name} ${a.last_name}`.trim(),
    firstName: a.first_name,
    lastName: a.last_name,
    age,
    occupation: text(a.occupation),
    gender: text(a.gender),
    pronouns: text(a.gender_pronoun),
    publicInfo: text(a.public_info),
    bigFive: text(a.big_five),
    moralValues: list(a.moral_values),
    schwartzValues: list(a.schwartz_personal_values),
    personality: text(a.personality_and_values),
    decisionStyle: text(a.decision_making_style),
    mbti: text(a.mbti),
    secret: unescapeQuotes(a.secret),
  };
  // Drop undefined keys so records stay compact and stable.
  return Object.fromEntries(Object.entries(character).filter(([, v]) => v !== undefined)) as Character;
}

function pairKey(a: string, b: string): string {
  return [a, b].sort().join('|');
}

function uniqueIndex<T>(rows: Located<T>[], key: (v: T) => string, field: string): Map<string, Located<T>> {
  const map = new Map<string, Located<T>>();
  for (const r of rows) {
    const k = key(r.value);
    if (map.has(k)) throw dup(r, field, k);
    map.set(k, r);
  }
  return map;
}

function dup(at: Located<unknown>, field: string, value: string): ScenarioError {
  return new ScenarioError(ScenarioErrorCode.DuplicateId, `duplicate ${field} '${value}'`, { file: at.file, line: at.line, field });
}
