import { existsSync, readFileSync } from 'node:fs';
import { allProviders, providerNamed, type FinetuneApi, type FinetuneJob, type FinetuneMethod, type Provider } from '../../llm/index.js';
import { experimentArm, fineTunedSpec } from '../../training/finetune/arm.js';
import type { FlagSpecs } from '../args.js';
import { parseCommand, UsageError, type CommandSpec } from '../command.js';

/** Flags of `parley finetune submit|status`. */
export const FINETUNE_FLAGS: FlagSpecs = {
  provider: { type: 'string', metavar: 'openai|mistral', describe: 'fine-tuning provider (status: default from the job id, ftjob-… = openai)' },
  model: { type: 'string', metavar: 'BASE', describe: 'submit: base model to fine-tune, e.g. gpt-3.5-turbo-0125' },
  validation: { type: 'string', metavar: 'FILE', describe: 'submit: validation file (e.g. from parley export --split)' },
  suffix: { type: 'string', metavar: 'TEXT', describe: "submit: suffix for the fine-tuned model's name" },
  method: { type: 'string', metavar: 'supervised|dpo', describe: 'submit: supervised (chat examples from parley export, the default) or dpo (preference pairs from parley pairs --format openai-dpo; openai)' },
  wait: { type: 'boolean', describe: 'status: poll until the job finishes' },
  interval: { type: 'number', metavar: 'S', describe: 'status --wait: seconds between polls (default 30)' },
};

const USAGE = 'parley finetune submit FILE --provider openai|mistral --model BASE [--method supervised|dpo] [--validation FILE]\n       parley finetune status JOB [--provider openai|mistral] [--wait]';
const SUMMARY = `Uploads a training file written by \`parley export --format openai-chat|mistral-chat\` (or, with --method dpo,
a preference-pairs file written by \`parley pairs --format openai-dpo\`) and starts a
fine-tuning job through the provider's SDK (files API, then fine-tuning jobs; keys and base URLs as for
runs: OPENAI_API_KEY / OPENAI_BASE_URL, MISTRAL_API_KEY / MISTRAL_BASE_URL). \`status\` reports the job;
once it has succeeded, it prints the model id and an experiment-file arm that plays a seat with it.`;

/** `parley finetune`'s command line. */
export const spec: CommandSpec = {
  name: 'finetune',
  usage: USAGE,
  summary: SUMMARY,
  flags: FINETUNE_FLAGS,
  positionals: { min: 2, max: 2, names: 'submit FILE or status JOB' },
};

/** A usage mistake is thrown (one line, exit 2, by cli/main.ts); other failures print here with their code. */
const fail = (message: string, code = 2): number => {
  if (code === 2) throw new UsageError(message);
  console.error(`parley finetune: ${message}`);
  return code;
};

/** The registered providers that offer fine-tuning (llm/providers/). */
const finetuneProviders = (): Provider[] => allProviders().filter((p) => p.finetune);

/** `--provider`'s provider when it offers fine-tuning (else a usage error naming those that do). */
function finetuneProvider(name: string | undefined): Provider & { finetune: NonNullable<Provider['finetune']> } {
  const p = name === undefined ? undefined : providerNamed(name);
  if (!p?.finetune) throw new UsageError(`--provider must be one of ${finetuneProviders().map((f) => f.name).join(', ')}`);
  return p as Provider & { finetune: NonNullable<Provider['finetune']> };
}

async function apiFor(provider: Provider & { finetune: NonNullable<Provider['finetune']> }): Promise<FinetuneApi | string> {
  const apiKey = process.env[provider.env.key];
  if (!apiKey) return `${provider.name} needs an API key in $${provider.env.key}`;
  const baseURL = process.env[provider.env.baseURL] || undefined;
  return provider.finetune.api({ apiKey, ...(baseURL ? { baseURL } : {}) });
}

const isMessages = (v: unknown): v is Array<{ role?: unknown; content?: unknown }> => Array.isArray(v) && v.every((m) => typeof m === 'object' && m !== null);
const oneAssistant = (v: unknown) => isMessages(v) && v.length === 1 && v[0]!.role === 'assistant' && typeof v[0]!.content === 'string';

/** What one line of a training file must hold under a method, or null when it does. */
function lineProblem(v: Record<string, unknown>, method: FinetuneMethod): string | null {
  if (method === 'dpo') {
    const input = v.input as { messages?: unknown } | undefined;
    if (!isMessages(input?.messages) || !input.messages.length) return 'expected {"input": {"messages": [...]}, ...} (a preference pair: parley pairs --format openai-dpo)';
    if (!oneAssistant(v.preferred_output) || !oneAssistant(v.non_preferred_output)) return 'expected preferred_output and non_preferred_output, each one assistant message';
    return null;
  }
  const messages = v.messages;
  return isMessages(messages) && messages.some((m) => m.role === 'assistant') ? null : 'expected {"messages": [...]} with an assistant message';
}

/** Checks every line has the method's shape, naming the first bad line. */
function checkFile(file: string, method: FinetuneMethod): string | null {
  if (!existsSync(file)) return `${file}: not found`;
  const lines = readFileSync(file, 'utf8').split('\n');
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim()) continue;
    n++;
    let v: unknown;
    try {
      v = JSON.parse(lines[i]!);
    } catch {
      return `${file}:${i + 1}: not JSON`;
    }
    const problem = typeof v === 'object' && v !== null ? lineProblem(v as Record<string, unknown>, method) : 'not a JSON object';
    if (problem) return `${file}:${i + 1}: ${problem}`;
  }
  return n === 0 ? `${file}: no examples` : null;
}

function describe(job: FinetuneJob): string {
  return `job ${job.id} (${job.provider}, base ${job.baseModel}): ${job.status}${job.rawStatus !== job.status ? ` (${job.rawStatus})` : ''}`;
}

async function submit(file: string, flags: Record<string, unknown>): Promise<number> {
  const provider = finetuneProvider(flags.provider as string | undefined);
  const model = flags.model as string | undefined;
  if (!model) return fail('--model BASE is required (e.g. gpt-3.5-turbo-0125)');
  const method = (flags.method as string | undefined) ?? 'supervised';
  if (method !== 'supervised' && method !== 'dpo') return fail(`--method must be supervised or dpo (got '${method}')`);
  if (!provider.finetune.methods.includes(method)) return fail(`--method ${method}: ${provider.name} fine-tuning takes ${provider.finetune.methods.join(', ')}`);
  const validation = flags.validation as string | undefined;
  for (const f of [file, ...(validation ? [validation] : [])]) {
    const problem = checkFile(f, method);
    if (problem) return fail(problem, 1);
  }
  const api = await apiFor(provider);
  if (typeof api === 'string') return fail(api, 1);
  const training = await api.upload(file);
  console.log(`uploaded ${file} as ${training.id} (${training.bytes} bytes)`);
  let validationId: string | undefined;
  if (validation) {
    validationId = (await api.upload(validation)).id;
    console.log(`uploaded ${validation} as ${validationId}`);
  }
  const job = await api.create({ baseModel: model, trainingFile: training.id, ...(method === 'dpo' ? { method } : {}), ...(validationId ? { validationFile: validationId } : {}), ...(flags.suffix ? { suffix: flags.suffix as string } : {}) });
  console.log(describe(job));
  console.log(`follow it with: parley finetune status ${job.id} --provider ${provider.name}`);
  return 0;
}

async function status(jobId: string, flags: Record<string, unknown>): Promise<number> {
  const provider = finetuneProvider((flags.provider as string | undefined) ?? finetuneProviders().find((p) => p.finetune!.ownsJobId(jobId))?.name);
  const interval = (flags.interval as number | undefined) ?? 30;
  if (!(interval >= 0)) return fail('--interval must be a number of seconds ≥ 0');
  const api = await apiFor(provider);
  if (typeof api === 'string') return fail(api, 1);
  let job = await api.get(jobId);
  console.log(describe(job));
  while (flags.wait && (job.status === 'queued' || job.status === 'running')) {
    // A CLI waiting on a remote job: polling on a timer is the only way to learn it finished.
    await new Promise((r) => setTimeout(r, interval * 1000));
    job = await api.get(jobId);
    console.log(describe(job));
  }
  if (job.status === 'failed' || job.status === 'cancelled') return fail(`job ${job.id} ${job.status}${job.error ? `: ${job.error}` : ''}`, 1);
  if (job.status !== 'succeeded') return 0;
  const name = job.trainingFile
    ? await api.filename(job.trainingFile).catch((err: Error) => {
        console.error(`note: could not read the training file's name (${err.message}); the arm names its id`);
        return null;
      })
    : null;
  console.log(`model: ${job.fineTunedModel ?? '(the provider named none)'}`);
  const spec = fineTunedSpec(job);
  if (spec) console.log(`policy spec: ${spec}`);
  const arm = experimentArm(job, name);
  if (arm) console.log(`experiment-file arm (e.g. in examples/agents-ft.yaml):\n${arm.trimEnd()}`);
  return 0;
}

/** `parley finetune submit FILE … | status JOB …`. */
export async function run(argv: string[]): Promise<number> {
  const [first] = argv.filter((a) => !a.startsWith('-'));
  if (first !== undefined && first !== 'submit' && first !== 'status') throw new UsageError(`unknown subcommand '${first}' (submit, status)`);
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const [sub, target] = parsed.positionals as [string, string];
  try {
    return sub === 'submit' ? await submit(target, parsed.flags) : await status(target, parsed.flags);
  } catch (err) {
    // A refused setting stays a usage error (one line, exit 2); a provider's refusal is exit 1.
    if (err instanceof UsageError) throw err;
    return fail(`${sub}: ${(err as Error).message}`, 1);
  }
}
