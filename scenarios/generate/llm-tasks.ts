import { createHash } from 'node:crypto';
import * as z from 'zod';
import { RELATIONSHIP_NAMES } from '../../protocol/index.js';
import type { ChatRequest, LlmClient } from '../../llm/types.js';
import { BUILTIN_CHARACTERS } from '../characters.js';
import { splitGoal, splitScenario } from '../import/sotopia-text.js';
import { Scenario, type Character } from '../model.js';
import { createRng } from '../rng.js';
import { BUILTIN_EXAMPLE } from './inspirations.js';

/**
 * LLM generation of new social tasks in the SOTOPIA-π manner: an inspiration prompt plus an example
 * scenario go to a model, which answers with one new scenario as JSON. Every answer is validated with
 * zod, deduplicated on normalised text and converted to a Parley Scenario; invalid or duplicate answers
 * are retried a bounded number of times and reported, never returned.
 */

/** The JSON a generating model must answer with (SOTOPIA's EnvironmentProfile fields, Parley-style). */
export const GeneratedTask = z.object({
  codename: z.string().regex(/^[a-z0-9_]{3,60}$/, 'snake_case, 3–60 characters'),
  scenario: z.string().min(30).max(2000),
  agent_goals: z.array(z.string().min(10).max(1500)).length(2),
  relationship: z.enum(RELATIONSHIP_NAMES),
  judge_only: z.string().max(1000).optional(),
});
export type GeneratedTask = z.infer<typeof GeneratedTask>;

/** JSON schema sent with the request, for providers with structured output. */
export const GENERATED_TASK_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['codename', 'scenario', 'agent_goals', 'relationship', 'judge_only'],
  properties: {
    codename: { type: 'string', description: 'snake_case name' },
    scenario: { type: 'string', description: 'the situation, visible to both characters' },
    agent_goals: { type: 'array', items: { type: 'string' }, description: 'exactly two goals: first character, then second' },
    relationship: { type: 'string', enum: [...RELATIONSHIP_NAMES] },
    judge_only: { type: 'string', description: 'facts only the judge may know; empty if none' },
  },
};

export interface LlmGenerateOptions {
  client: LlmClient;
  n: number;
  inspirations: readonly string[];
  /** The example, in the GeneratedTask shape (see `exampleFromScenario`). */
  example?: GeneratedTask;
  seed?: number;
  /** Attempts per requested scenario (first try included); total attempts are n × this. Default 3. */
  attemptsPerScenario?: number;
  characters?: readonly Character[];
  /** Normalised texts already taken (e.g. an existing file), so they are not produced again. */
  existing?: Iterable<Scenario>;
  temperature?: number;
  /** Called for each rejected answer (invalid JSON, schema failure, duplicate, call failure). */
  onReject?: (r: Rejection) => void;
}

/** A rejected generation, with why. */
export interface Rejection {
  attempt: number;
  reason: string;
}

export interface LlmGenerateResult {
  scenarios: Scenario[];
  rejected: Rejection[];
  attempts: number;
}

/** Runs the generation loop; returns at most `n` valid, distinct scenarios (fewer if the attempt budget ran out). */
export async function generateWithLlm(opts: LlmGenerateOptions): Promise<LlmGenerateResult> {
  if (opts.inspirations.length === 0) throw new Error('generateWithLlm: no inspiration prompts');
  const rng = createRng(opts.seed ?? 1);
  const example = opts.example ?? GeneratedTask.parse(BUILTIN_EXAMPLE);
  const characters = opts.characters ?? BUILTIN_CHARACTERS;
  const budget = opts.n * (opts.attemptsPerScenario ?? 3);
  const seen = new Set<string>([normaliseText(example.scenario)]);
  for (const s of opts.existing ?? []) seen.add(normaliseText(s.narrative.map((x) => x.text).join(' ')));
  const source = `generated:${opts.client.provider}:${opts.client.model}`;
  const scenarios: Scenario[] = [];
  const rejected: Rejection[] = [];
  let attempts = 0;
  const reject = (reason: string) => {
    const r = { attempt: attempts, reason };
    rejected.push(r);
    opts.onReject?.(r);
  };

  while (scenarios.length < opts.n && attempts < budget) {
    attempts++;
    const inspiration = rng.pick(opts.inspirations);
    let content: string;
    try {
      content = (await opts.client.chat(buildRequest(inspiration, example, opts.temperature))).content;
    } catch (err) {
      reject(`call failed: ${(err as Error).message}`);
      continue;
    }
    const parsed = parseGeneratedTask(content);
    if (!parsed.ok) {
      reject(parsed.reason);
      continue;
    }
    const key = normaliseText(parsed.task.scenario);
    if (seen.has(key)) {
      reject(`duplicate scenario text ("${parsed.task.scenario.slice(0, 60)}…")`);
      continue;
    }
    const pair = rng.sample(characters, 2);
    const built = toScenario(parsed.task, pair, source);
    if (!built.ok) {
      reject(built.reason);
      continue;
    }
    seen.add(key);
    scenarios.push(built.scenario);
  }
  return { scenarios, rejected, attempts };
}

/** The chat request for one generation. */
export function buildRequest(inspiration: string, example: GeneratedTask, temperature = 1): ChatRequest {
  const system =
    'You write scenarios for a simulation of social interactions between two characters. Each character ' +
    'gets a private goal; the goals should be at least partly in tension, and reaching them should take a ' +
    'conversation. Private hints for one character go inside that goal as <extra_info>…</extra_info> or ' +
    '<strategy_hint>…</strategy_hint>. Facts only an outside judge may know go in judge_only. ' +
    'Answer with one JSON object and nothing else.';
  const user = [
    `Inspiration: ${inspiration}`,
    '',
    'Example of the format (write a different situation, not a variation of this one):',
    JSON.stringify(example, null, 2),
    '',
    'Write one new scenario inspired by the inspiration, as a JSON object with exactly these fields:',
    `codename (snake_case), scenario (the situation both characters know, 1–4 sentences, no character names), ` +
      `agent_goals (two strings, first character then second), relationship (one of: ${RELATIONSHIP_NAMES.map((r) => `"${r}"`).join(', ')}), ` +
      'judge_only (string, may be empty).',
  ].join('\n');
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    json: { name: 'parley_scenario', schema: GENERATED_TASK_JSON_SCHEMA },
    temperature,
  };
}

/** Reads a model answer: the JSON object (code fences and chatter around it tolerated), then the schema. */
export function parseGeneratedTask(content: string): { ok: true; task: GeneratedTask } | { ok: false; reason: string } {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start < 0 || end <= start) return { ok: false, reason: 'no JSON object in the answer' };
  let json: unknown;
  try {
    json = JSON.parse(content.slice(start, end + 1));
  } catch (err) {
    return { ok: false, reason: `bad JSON (${(err as Error).message})` };
  }
  const parsed = GeneratedTask.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `field '${issue.path.join('.') || '(root)'}': ${issue.message}` };
  }
  const goals = parsed.data.agent_goals.map((g) => normaliseText(splitGoal(g).goal));
  if (goals[0] === goals[1]) return { ok: false, reason: 'the two goals are the same' };
  return { ok: true, task: parsed.data };
}

/** Lower-case words only, so trivially reworded copies compare equal. */
export function normaliseText(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** A generated task as a Parley scenario: hints and judge-only text become structural. */
export function toScenario(task: GeneratedTask, characters: Character[], source: string): { ok: true; scenario: Scenario } | { ok: false; reason: string } {
  const { narrative, judgeOnly: inline } = splitScenario(task.scenario);
  const judgeOnly = [inline, task.judge_only?.trim() ?? ''].filter((t) => t !== '').join('\n');
  const id = `gen-${createHash('sha256').update(normaliseText(task.scenario)).digest('hex').slice(0, 12)}`;
  const parsed = Scenario.safeParse({
    id,
    envId: id,
    pairId: id,
    codename: task.codename,
    source,
    subsets: ['generated'],
    kind: 'open',
    narrative: [{ text: narrative, visibleTo: 'all' }],
    judgeOnly,
    relationship: { level: RELATIONSHIP_NAMES.indexOf(task.relationship) },
    seats: task.agent_goals.map((raw, i) => {
      const { goal, hints } = splitGoal(raw);
      const character = characters[i]!;
      return { seat: `agent${i + 1}`, character, goal, hints, secret: character.secret, task: null, shares: [] };
    }),
    truth: null,
  });
  if (!parsed.success) return { ok: false, reason: `not a valid scenario (${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message})` };
  if (parsed.data.seats.some((s) => s.goal === '')) return { ok: false, reason: 'a goal is empty once hints are removed' };
  return { ok: true, scenario: parsed.data };
}

/** Turns an existing Parley scenario into the example format (hints re-tagged into the goals). */
export function exampleFromScenario(s: Scenario): GeneratedTask {
  const level = s.relationship.level;
  return {
    codename: (s.codename ?? s.envId).toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 60).padEnd(3, '_'),
    scenario: s.narrative.filter((x) => x.visibleTo === 'all').map((x) => x.text).join(' '),
    agent_goals: s.seats.slice(0, 2).map((seat) => [seat.goal, ...seat.hints.map((h) => `<${h.kind}>${h.text}</${h.kind}>`)].join(' ')),
    relationship: RELATIONSHIP_NAMES[level]!,
    judge_only: s.judgeOnly,
  };
}
