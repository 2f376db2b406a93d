import { existsSync, readFileSync } from 'node:fs';
import { PROVIDER_ENV } from '../../llm/index.js';
import { experimentArm, fineTunedSpec } from '../../training/finetune/arm.js';
import { FINETUNE_PROVIDERS, type FinetuneApi, type FinetuneJob, type FinetuneProvider } from '../../training/finetune/job.js';
import { formatHelp, parseArgs, type FlagSpecs } from '../args.js';

/** Flags of `parley finetune submit|status`. */
export const FINETUNE_FLAGS: FlagSpecs = {
  provider: { type: 'string', metavar: 'openai|mistral', describe: 'fine-tuning provider (status: default from the job id, ftjob-… = openai)' },
  model: { type: 'string', metavar: 'BASE', describe: 'submit: base model to fine-tune, e.g. gpt-3.5-turbo-0125' },
  validation: { type: 'string', metavar: 'FILE', describe: 'submit: validation file (e.g. from parley export --split)' },
  suffix: { type: 'string', metavar: 'TEXT', describe: "submit: suffix for the fine-tuned model's name" },
  wait: { type: 'boolean', describe: 'status: poll until the job finishes' },
  interval: { type: 'number', metavar: 'S', describe: 'status --wait: seconds between polls (default 30)' },
  help: { type: 'boolean', describe: 'show this help' },
};

const USAGE = 'parley finetune submit FILE --provider openai|mistral --model BASE [--validation FILE]\n       parley finetune status JOB [--provider openai|mistral] [--wait]';
const SUMMARY = [
  'Uploads a training file written by `parley export --format openai-chat|mistral-chat` and starts a',
  "fine-tuning job through the provider's SDK (files API, then fine-tuning jobs; keys and base URLs as for",
  'runs: OPENAI_API_KEY / OPENAI_BASE_URL, MISTRAL_API_KEY / MISTRAL_BASE_URL). `status` reports the job;',
  'once it has succeeded, it prints the model id and an experiment-file arm that plays a seat with it.',
].join('\n');

const fail = (message: string, code = 2) => {
  console.error(`parley finetune: ${message}`);
  return code;
};

async function apiFor(provider: FinetuneProvider): Promise<FinetuneApi | string> {
  const env = PROVIDER_ENV[provider];
  const apiKey = process.env[env.key];
  if (!apiKey) return `${provider} needs an API key in $${env.key}`;
  const baseURL = process.env[env.baseURL] || undefined;
  const access = { apiKey, ...(baseURL ? { baseURL } : {}) };
  return provider === 'openai'
    ? (await import('../../training/finetune/openai.js')).openAiFinetune(access)
    : (await import('../../training/finetune/mistral.js')).mistralFinetune(access);
}

/** Checks every line is `{"messages": [...]}` with an assistant message, naming the first bad line. */
function checkFile(file: string): string | null {
  if (!existsSync(file)) return `${file}: not found`;
  const lines = readFileSync(file, 'utf8').split('\n');
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim()) continue;
    n++;
    let v: { messages?: Array<{ role?: unknown; content?: unknown }> };
    try {
      v = JSON.parse(lines[i]!);
    } catch {
      return `${file}:${i + 1}: not JSON`;
    }
    if (!Array.isArray(v.messages) || !v.messages.some((m) => m.role === 'assistant')) return `${file}:${i + 1}: expected {"messages": [...]} with an assistant message`;
  }
  return n === 0 ? `${file}: no examples` : null;
}

function describe(job: FinetuneJob): string {
  return `job ${job.id} (${job.provider}, base ${job.baseModel}): ${job.status}${job.rawStatus !== job.status ? ` (${job.rawStatus})` : ''}`;
}

async function submit(file: string, flags: Record<string, unknown>): Promise<number> {
  const provider = flags.provider as FinetuneProvider | undefined;
  if (!provider || !FINETUNE_PROVIDERS.includes(provider)) return fail(`--provider must be one of ${FINETUNE_PROVIDERS.join(', ')}`);
  const model = flags.model as string | undefined;
  if (!model) return fail('--model BASE is required (e.g. gpt-3.5-turbo-0125)');
  const validation = flags.validation as string | undefined;
  for (const f of [file, ...(validation ? [validation] : [])]) {
    const problem = checkFile(f);
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
  const job = await api.create({ baseModel: model, trainingFile: training.id, ...(validationId ? { validationFile: validationId } : {}), ...(flags.suffix ? { suffix: flags.suffix as string } : {}) });
  console.log(describe(job));
  console.log(`follow it with: parley finetune status ${job.id} --provider ${provider}`);
  return 0;
}

async function status(jobId: string, flags: Record<string, unknown>): Promise<number> {
  const provider = (flags.provider as FinetuneProvider | undefined) ?? (jobId.startsWith('ftjob-') ? 'openai' : undefined);
  if (!provider || !FINETUNE_PROVIDERS.includes(provider)) return fail(`--provider must be one of ${FINETUNE_PROVIDERS.join(', ')}`);
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
  const parsed = parseArgs(argv, FINETUNE_FLAGS);
  if (!parsed.ok) return fail(`${parsed.message}\n\n${formatHelp(USAGE, SUMMARY, FINETUNE_FLAGS)}`);
  const [sub, target, ...rest] = parsed.positionals;
  if (parsed.flags.help || !sub) {
    console.log(formatHelp(USAGE, SUMMARY, FINETUNE_FLAGS));
    return parsed.flags.help ? 0 : 2;
  }
  if (rest.length) return fail(`unexpected argument '${rest[0]}'`);
  if (sub !== 'submit' && sub !== 'status') return fail(`unknown subcommand '${sub}' (submit, status)`);
  if (!target) return fail(sub === 'submit' ? 'name the training file' : 'name the job id');
  try {
    return sub === 'submit' ? await submit(target, parsed.flags) : await status(target, parsed.flags);
  } catch (err) {
    return fail(`${sub}: ${(err as Error).message}`, 1);
  }
}
