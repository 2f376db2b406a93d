/**
 * Default answers of the fake LLM server to requests that are not agent moves or scripts: a judge, a
 * naturalness comparison, a scenario generator. With a JSON schema in the request it answers a value of
 * that schema (mid-range numbers, first enum values, short strings); a scenario-generation request gets
 * a new, distinct scenario each time so generation runs complete against the default server.
 */

type Schema = Record<string, unknown>;

/** A value valid for `schema` (the subset of JSON Schema Parley's requests use). */
export function fillSchema(schema: Schema | undefined, label = 'value'): unknown {
  if (!schema) return null;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') ?? 'null' : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(props).map(([k, s]) => [k, fillSchema(s, k)]));
    }
    case 'array': {
      const n = typeof schema.minItems === 'number' ? schema.minItems : 1;
      return Array.from({ length: n }, (_, i) => fillSchema(schema.items as Schema, `${label} ${i + 1}`));
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 10;
      const mid = (min + max) / 2;
      return type === 'integer' ? Math.round(mid) : mid;
    }
    case 'boolean':
      return false;
    case 'string':
      return `A plausible ${label}.`;
    default:
      return null;
  }
}

const TOPICS = ['a shared garden plot', 'a borrowed car', 'a surprise party', 'a noisy neighbour', 'a job referral', 'a lost wallet', 'a group trip budget', 'a band rehearsal slot', 'a late rent payment', 'a wedding toast'];
let generated = 0;

/** A new, valid SOTOPIA-style task for a `parley_scenario` request; distinct on every call. */
export function plausibleScenario(): string {
  const n = generated++;
  const topic = TOPICS[n % TOPICS.length]!;
  return JSON.stringify({
    codename: `fake_task_${n}`,
    scenario: `Two neighbours talk in the hallway about ${topic} (situation number ${n}) and need to settle it today.`,
    agent_goals: [
      `Convince the other person to accept your plan for ${topic}, without promising money.`,
      `Keep your own plan for ${topic} unless you get something in return.`,
    ],
    relationship: 'acquaintance',
    judge_only: '',
  });
}
