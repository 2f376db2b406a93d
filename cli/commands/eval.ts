import { existsSync } from 'node:fs';
import { resolveJudgeView, type PolicyConfig } from '../../protocol/index.js';
import { checkJudgeEndpoint } from '../judge-preflight.js';
import { parseCommand, parseParam, positiveInt, UsageError, type CommandSpec } from '../command.js';
import type { LlmClient } from '../../llm/types.js';
import { evaluateRun, type EvaluateProgress } from '../../evaluator/evaluate-run.js';
import { estimateCost } from '../../llm/cost.js';
import { loadRunDir } from '../../evaluator/run-dir.js';
import { lockRunDir } from '../run-dir-lock.js';

/** `parley eval`'s command line. */
export const spec: CommandSpec = {
  name: 'eval',
  usage: 'parley eval DIR --judge SPEC [options]',
  summary:
    "(Re)evaluates a finished run with an LLM judge on SOTOPIA-EVAL's seven dimensions and stores, per\n" +
    'episode and seat, every score with its reasoning (or an evaluation error) in the `evaluation` field of\n' +
    "DIR/episodes.jsonl, rewritten atomically. Craigslist episodes also get the judge's reading of the deal.\n" +
    "It holds the run directory's lock while it works: started next to a `parley run` writing DIR, it says\n" +
    'so and waits for that run to end, then judges every record.',
  flags: {
    judge: { type: 'string', metavar: 'SPEC', describe: "judge model, e.g. openai:gpt-4, mistral:mistral-large-latest (default: run.json's judge)" },
    blind: { type: 'boolean', describe: "the judge sees only the public transcript and each seat's own goal (default: full background, like SOTOPIA)" },
    'judge-view': { type: 'string', metavar: 'paper|parley', describe: "paper: exactly SOTOPIA's judge information (scenario, both bios with secrets, both goals, Turn #k transcript), one user message, no response_format; parley: the richer view (default: the run's judgeView in run.json, else paper for runs with --protocol paper, else parley)" },
    'reformat-model': { type: 'string', metavar: 'SPEC', describe: "paper view: the model asked once to reformat an unreadable judge reply (default: the run's judge's reformat in run.json, else openai:gpt-3.5-turbo for openai: judges, as SOTOPIA, else the judge)" },
    concurrency: { type: 'number', describe: 'episodes judged at once (default 4)' },
    missing: { type: 'boolean', describe: 'only episodes not yet scored by this judge, or whose evaluation failed' },
    'no-wait': { type: 'boolean', describe: 'if another command is writing DIR, stop at once naming it (default: wait)' },
    'base-url': { type: 'string', metavar: 'URL', describe: "provider base URL (else the run's judge's baseURL, else OPENAI_BASE_URL / MISTRAL_BASE_URL)" },
    'api-key-env': { type: 'string', metavar: 'VAR', describe: "env variable holding the key (else the run's judge's apiKeyEnv, else OPENAI_API_KEY / MISTRAL_API_KEY)" },
    param: { type: 'string', multiple: true, metavar: 'KEY=VALUE', describe: 'client setting or sampling param (repeatable), e.g. structuredOutput=json_object' },
  },
  positionals: { min: 1, max: 1, names: 'one run directory' },
};

/** `parley eval DIR --judge SPEC [--blind] [--concurrency N]`. */
export async function run(argv: string[]): Promise<number> {
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const values = args.flags as EvalFlags;
  const dir = args.positionals[0]!;
  const concurrency = positiveInt(args.flags, 'concurrency', 4);
  if (!existsSync(dir)) {
    console.error(`parley eval: ${dir}: no such run directory`);
    return 1;
  }
  // The lock before the read: no writer may append between the read and the rewrite of episodes.jsonl.
  const locked = await lockRunDir(dir, 'eval', args.flags['no-wait'] === true ? 0 : Infinity);
  if (!locked.ok) {
    console.error(`parley eval: ${locked.message}`);
    return 1;
  }
  try {
    return await evaluateLocked(dir, values, concurrency);
  } finally {
    locked.lock.release();
  }
}

type EvalFlags = { judge?: string; 'judge-view'?: string; 'reformat-model'?: string; blind?: boolean; missing?: boolean; 'base-url'?: string; 'api-key-env'?: string; param?: string[] };

async function evaluateLocked(dir: string, values: EvalFlags, concurrency: number): Promise<number> {
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) {
    console.error(`parley eval: ${loaded.error.message}`);
    return 1;
  }
  if (loaded.run.tornBytes) console.error(`parley eval: ${dir}/episodes.jsonl ends in a torn line (${loaded.run.tornBytes} bytes, an interrupted write): not a record, left out`);
  const runJudge = (loaded.run.run?.['config'] as { judge?: PolicyConfig } | undefined)?.judge;
  const judgeSpec = values.judge ?? runJudge?.spec;
  // The judge the run names comes with its own endpoint, key variable and reformat model (experiment file `judge:`); a --judge replaces all of them.
  const fromRun = values.judge ? undefined : runJudge;
  const endpoint = {
    ...((values['base-url'] ?? fromRun?.baseURL) ? { baseURL: (values['base-url'] ?? fromRun?.baseURL)! } : {}),
    ...((values['api-key-env'] ?? fromRun?.apiKeyEnv) ? { apiKeyEnv: (values['api-key-env'] ?? fromRun?.apiKeyEnv)! } : {}),
  };
  if (!judgeSpec) throw new UsageError('--judge SPEC is required (e.g. --judge openai:gpt-4); run.json names no judge');
  const params: Record<string, unknown> = { ...(values.judge ? {} : runJudge?.params ?? {}) };
  for (const p of values.param ?? []) {
    const [key, value] = parseParam(p);
    params[key] = value;
  }
  // The judge's temperature is fixed at 0; a sampling param cannot override it.
  delete params['temperature'];
  // Loaded only now: the provider SDKs take a while to load, and argument errors should not wait for them.
  const { createClient } = await import('../../llm/index.js');
  let client: LlmClient;
  try {
    client = createClient({ spec: judgeSpec, params, ...endpoint });
  } catch (err) {
    throw new UsageError(`judge ${judgeSpec}: ${(err as Error).message}`);
  }
  const unreachable = await checkJudgeEndpoint(judgeSpec, endpoint);
  if (unreachable) throw new Error(unreachable);
  const visibility = values.blind ? 'blind' : 'full';
  const config = loaded.run.run?.['config'] as { protocol?: unknown; judgeView?: unknown } | undefined;
  const protocol = loaded.run.run?.protocol?.name ?? config?.protocol;
  // The flag, else what the run recorded (experiment key judgeView, run --judge-view), else the protocol's default.
  const view = resolveJudgeView(values['judge-view'], config?.judgeView, protocol);
  if (!view) throw new UsageError(`--judge-view must be paper or parley (got '${values['judge-view']}')`);
  // SOTOPIA sent its one reformat request to gpt-3.5-turbo; same endpoint and key as the judge unless the
  // run's judge names its reformat model with its own (experiment file `judge: { reformat: … }`).
  const recordedReformat = values['reformat-model'] === undefined ? fromRun?.reformat : undefined;
  const reformatSpec = values['reformat-model'] ?? recordedReformat?.spec ?? (judgeSpec.startsWith('openai:') ? 'openai:gpt-3.5-turbo' : judgeSpec);
  const reformatEndpoint = {
    ...endpoint,
    ...(recordedReformat?.baseURL ? { baseURL: recordedReformat.baseURL } : {}),
    ...(recordedReformat?.apiKeyEnv ? { apiKeyEnv: recordedReformat.apiKeyEnv } : {}),
  };
  let reformatClient: LlmClient | undefined;
  if (view === 'paper' && (reformatSpec !== judgeSpec || recordedReformat)) {
    try {
      reformatClient = createClient({ spec: reformatSpec, ...reformatEndpoint });
    } catch (err) {
      throw new UsageError(`reformat model ${reformatSpec}: ${(err as Error).message}`);
    }
  }
  const total = loaded.run.episodes.length;
  console.error(`parley eval: ${total} episodes in ${dir}, judge ${judgeSpec} (${visibility}, ${view} view), concurrency ${concurrency}`);
  const tty = process.stderr.isTTY;
  const controller = new AbortController();
  const resume = `parley eval ${dir} --judge ${judgeSpec} --judge-view ${view}${values.blind ? ' --blind' : ''} --missing`;
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`${tty ? '\n' : ''}interrupted: finishing the episodes being judged (Ctrl-C again to quit now); resume with: ${resume}\n`);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const [provider, model] = [judgeSpec.slice(0, judgeSpec.indexOf(':')), judgeSpec.slice(judgeSpec.indexOf(':') + 1)];
  const startedAt = Date.now();
  try {
    const result = await evaluateRun(loaded.run, {
      client,
      spec: judgeSpec,
      visibility,
      view,
      ...(reformatClient ? { reformatClient } : {}),
      concurrency,
      missingOnly: values.missing === true,
      signal: controller.signal,
      onProgress: (p) => {
        const line = evalProgressLine(p, Date.now() - startedAt, costOf(provider, model, p.usage));
        if (tty) process.stderr.write(`\r\u001b[2K${line}`);
        else console.error(line);
      },
    });
    if (tty) process.stderr.write('\n');
    const errs = Object.entries(result.errors).map(([c, n]) => `${c} ×${n}`).join(', ');
    console.log(
      `evaluated ${result.judged} episodes: ${result.scoredSeats} seats scored, ${result.errorSeats} evaluation errors${errs ? ` (${errs})` : ''}` +
        (result.skippedFailed ? `; ${result.skippedFailed} failed episodes not judged` : '') +
        (result.skippedDone ? `; ${result.skippedDone} already scored` : '') +
        (result.formatFallbacks ? `; ${result.formatFallbacks} judge calls without response_format (schema in the prompt or JSON mode: the server rejected it)` : '') +
        `\nwrote ${dir}/episodes.jsonl`,
    );
    if (controller.signal.aborted) {
      console.error(`interrupted after ${result.judged} episode(s); resume with: ${resume}`);
      return 130;
    }
    // Evaluation errors are recorded results; but a judge that never answered usably is a failed command.
    return result.errorSeats > 0 && result.scoredSeats === 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Estimated US$ of judge usage, or null when the price table has no price for the model. */
function costOf(provider: string, model: string, usage: { prompt: number; completion: number }): number | null {
  try {
    return estimateCost(provider, model, { prompt: usage.prompt, completion: usage.completion, cached: 0 });
  } catch {
    return null;
  }
}

/** `judged 12/300 episodes · 22 seats scored · 0 evaluation errors · 34.5k tokens · ~$0.0123 · ETA 4m10s` */
export function evalProgressLine(p: EvaluateProgress, elapsedMs: number, usd: number | null): string {
  const tokens = p.usage.prompt + p.usage.completion;
  const k = tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
  const left = p.total - p.done;
  const etaS = p.done ? Math.round(((elapsedMs / p.done) * left) / 1000) : null;
  const eta = left === 0 ? 'done' : etaS === null ? 'ETA …' : `ETA ${etaS >= 60 ? `${Math.floor(etaS / 60)}m${String(etaS % 60).padStart(2, '0')}s` : `${etaS}s`}`;
  return `judged ${p.done}/${p.total} episodes · seats scored ${p.scoredSeats} · evaluation errors ${p.errorSeats} · ${k} tokens · ${usd === null ? 'cost unpriced' : `~$${usd.toFixed(4)}`} · ${eta}`;
}
