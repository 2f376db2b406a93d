import { readText } from '../../scenarios/import/read-json.js';
import { createClient } from '../../llm/index.js';
import type { LlmClient } from '../../llm/types.js';
import { ScenarioError, ScenarioErrorCode } from '../../scenarios/errors.js';
import { BUILTIN_INSPIRATIONS } from '../../scenarios/generate/inspirations.js';
import { exampleFromScenario, generateWithLlm, type GeneratedTask } from '../../scenarios/generate/llm-tasks.js';
import { loadScenarios, writeScenarioFile } from '../../scenarios/load.js';
import { parseParam } from '../command.js';
import { parseFlags, specOfHelp, type Subcommand } from '../command.js';
import { EXIT, intOption, UsageError } from './common.js';

const TEXT = `usage: parley scenarios generate --n N --model SPEC --out FILE [options]

Generates new social scenarios with an LLM in the SOTOPIA-π manner: each request combines an inspiration
prompt with an example scenario and asks for one new scenario as JSON. Answers are validated, deduplicated
(normalised text) and retried a bounded number of times; invalid ones are reported and never written. The
generating model is recorded in each record's \`source\` (generated:<provider>:<model>). Characters come from
Parley's own pool.`;

/** The options the parser accepts; the help's options section is generated from them. */
const OPTIONS = {
  n: { type: 'string', metavar: 'N', describe: 'how many scenarios (required)' },
  model: { type: 'string', metavar: 'SPEC', describe: 'openai:<model> or mistral:<model> (keys: OPENAI_API_KEY / MISTRAL_API_KEY)' },
  out: { type: 'string', metavar: 'FILE', describe: 'where to write (required)' },
  inspiration: { type: 'string', metavar: 'FILE', describe: 'inspiration prompts: one per line (# comments), or a JSON list of strings (default: Parley\'s built-in prompts)' },
  example: { type: 'string', metavar: 'FILE', describe: 'example scenario: a Parley scenario file or \\`builtin\\` (default: a built-in example)' },
  'example-id': { type: 'string', metavar: 'ID', describe: 'which record of --example (id, envId or codename; default: the first)' },
  seed: { type: 'string', metavar: 'S', describe: 'seed for choosing prompts and characters (default 1)' },
  attempts: { type: 'string', metavar: 'N', describe: 'attempts per scenario, first try included (default 3)' },
  'allow-partial': { type: 'boolean', describe: 'write the valid ones even if fewer than N were obtained (still exits 1)' },
  'base-url': { type: 'string', metavar: 'URL', describe: 'provider base URL (else OPENAI_BASE_URL / MISTRAL_BASE_URL)' },
  'api-key-env': { type: 'string', metavar: 'VAR', describe: 'env variable holding the key' },
  param: { type: 'string', multiple: true, metavar: 'KEY=VALUE', describe: 'client setting or sampling param (repeatable), e.g. temperature=0.9' },
} as const;

const SPEC = specOfHelp('scenarios generate', TEXT, OPTIONS);

/** Reads inspiration prompts from a text file (one per line) or a JSON list of strings. */
export async function readInspirations(file: string): Promise<string[]> {
  const text = await readText(file);
  const trimmed = text.trim();
  let prompts: string[];
  if (trimmed.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (err) {
      throw new ScenarioError(ScenarioErrorCode.BadJson, `bad JSON (${(err as Error).message})`, { file }, { cause: err });
    }
    if (!Array.isArray(json) || json.some((x) => typeof x !== 'string')) {
      throw new ScenarioError(ScenarioErrorCode.InvalidField, 'expected a JSON list of strings', { file, field: '(root)' });
    }
    prompts = json as string[];
  } else {
    prompts = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  }
  prompts = prompts.map((p) => p.trim()).filter((p) => p !== '');
  if (prompts.length === 0) throw new ScenarioError(ScenarioErrorCode.InvalidField, 'no inspiration prompts', { file });
  return prompts;
}

/** Test hook: lets a test inject a client instead of creating one from the spec. */
export type ClientFactory = (spec: string, baseURL: string | undefined, apiKeyEnv: string | undefined, params: Record<string, unknown>) => LlmClient;

const defaultFactory: ClientFactory = (spec, baseURL, apiKeyEnv, params) =>
  createClient({ spec, params, ...(baseURL ? { baseURL } : {}), ...(apiKeyEnv ? { apiKeyEnv } : {}) });


export function generateCommand(factory: ClientFactory = defaultFactory): Subcommand {
  return {
    spec: SPEC,
    async run(argv) {
      const { values } = parseFlags(SPEC, argv);
      if (!values.n) throw new UsageError('--n N is required');
      if (!values.model) throw new UsageError('--model SPEC is required');
      if (!values.out) throw new UsageError('--out FILE is required');
      const n = intOption('n', values.n, 1);
      const attempts = intOption('attempts', values.attempts, 3);
      const seed = intOption('seed', values.seed, 1, 0);
      const params = Object.fromEntries((values.param ?? []).map((p) => parseParam(p)));
      const temperature = typeof params.temperature === 'number' ? params.temperature : undefined;
      const inspirations = values.inspiration ? await readInspirations(values.inspiration) : [...BUILTIN_INSPIRATIONS];
      let example: GeneratedTask | undefined;
      if (values.example) {
        const pool = await loadScenarios(values.example);
        const id = values['example-id'];
        const chosen = id ? pool.find((s) => s.id === id || s.envId === id || s.codename === id) : pool[0];
        if (!chosen) throw new ScenarioError(ScenarioErrorCode.UnknownReference, id ? `no scenario '${id}'` : 'no scenarios', { file: values.example });
        example = exampleFromScenario(chosen);
      }
      let client: LlmClient;
      try {
        client = factory(values.model, values['base-url'], values['api-key-env'], params);
      } catch (err) {
        console.error(`parley scenarios generate: ${(err as Error).message}`);
        return EXIT.failed;
      }
      const result = await generateWithLlm({
        client, n, inspirations, seed, attemptsPerScenario: attempts,
        ...(example ? { example } : {}),
        ...(temperature !== undefined ? { temperature } : {}),
        onReject: (r) => console.error(`attempt ${r.attempt}: rejected: ${r.reason}`),
      });
      const got = result.scenarios.length;
      console.log(`${got} of ${n} scenarios valid after ${result.attempts} attempts (${result.rejected.length} rejected)`);
      if (got < n && !values['allow-partial']) {
        console.error(`parley scenarios generate: only ${got} of ${n} valid scenarios; nothing written (use --allow-partial to keep them)`);
        return EXIT.failed;
      }
      if (got > 0) {
        await writeScenarioFile(values.out, result.scenarios);
        console.log(`wrote ${got} scenarios to ${values.out}`);
      }
      return got < n ? EXIT.failed : EXIT.ok;
    },
  };
}
