import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { LlmClient } from '../../llm/types.js';
import { evaluateRun } from '../../evaluator/evaluate-run.js';
import { loadRunDir } from '../../evaluator/run-dir.js';
import { lockRunDir } from '../run-dir-lock.js';

const HELP = `usage: parley eval DIR --judge SPEC [options]

(Re)evaluates a finished run with an LLM judge on SOTOPIA-EVAL's seven dimensions and stores, per
episode and seat, every score with its reasoning (or an evaluation error) in the \`evaluation\` field of
DIR/episodes.jsonl, rewritten atomically. Craigslist episodes also get the judge's reading of the deal.
It holds the run directory's lock while it works: started next to a \`parley run\` writing DIR, it says
so and waits for that run to end, then judges every record.

options:
  --judge SPEC          judge model, e.g. openai:gpt-4, mistral:mistral-large-latest (default: run.json's judge)
  --blind               the judge sees only the public transcript and each seat's own goal
                        (default: full background — both goals, secrets, judge-only text — like SOTOPIA)
  --concurrency N       episodes judged at once (default 4)
  --missing             only episodes not yet scored by this judge, or whose evaluation failed
  --no-wait             if another command is writing DIR, stop at once naming it (default: wait)
  --base-url URL        provider base URL (else OPENAI_BASE_URL / MISTRAL_BASE_URL)
  --api-key-env VAR     env variable holding the key (default OPENAI_API_KEY / MISTRAL_API_KEY)
  --param KEY=VALUE     client setting or sampling param (repeatable), e.g. structuredOutput=json_object
`;

function parseParam(text: string): [string, unknown] | null {
  const eq = text.indexOf('=');
  if (eq <= 0) return null;
  const key = text.slice(0, eq);
  const raw = text.slice(eq + 1);
  const num = Number(raw);
  return [key, raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(num) ? num : raw];
}

interface EvalFlags {
  judge?: string | undefined;
  blind: boolean;
  concurrency: string;
  missing: boolean;
  'base-url'?: string | undefined;
  'api-key-env'?: string | undefined;
  param: string[];
}

/** `parley eval DIR --judge SPEC [--blind] [--concurrency N]`. */
export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        judge: { type: 'string' },
        blind: { type: 'boolean', default: false },
        concurrency: { type: 'string', default: '4' },
        missing: { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        param: { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    console.error(`parley eval: ${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`parley eval: expected one run directory, got ${positionals.length}\n\n${HELP}`);
    return 2;
  }
  const dir = positionals[0]!;
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    console.error(`parley eval: --concurrency must be a positive integer (got '${values.concurrency}')`);
    return 2;
  }
  if (!existsSync(dir)) {
    console.error(`parley eval: ${dir}: no such run directory`);
    return 1;
  }
  // The lock before the read: no writer may append between the read and the rewrite of episodes.jsonl.
  const locked = await lockRunDir(dir, 'eval', values['no-wait'] ? 0 : Infinity);
  if (!locked.ok) {
    console.error(`parley eval: ${locked.message}`);
    return 1;
  }
  try {
    return await evaluateLocked(dir, values);
  } finally {
    locked.lock.release();
  }
}

async function evaluateLocked(dir: string, values: EvalFlags): Promise<number> {
  const concurrency = Number(values.concurrency);
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) {
    console.error(`parley eval: ${loaded.error.message}`);
    return 1;
  }
  if (loaded.run.tornBytes) console.error(`parley eval: ${dir}/episodes.jsonl ends in a torn line (${loaded.run.tornBytes} bytes, an interrupted write): not a record, left out`);
  const runJudge = loaded.run.run?.config.judge;
  const spec = values.judge ?? runJudge?.spec;
  if (!spec) {
    console.error('parley eval: --judge SPEC is required (e.g. --judge openai:gpt-4); run.json names no judge');
    return 2;
  }
  const params: Record<string, unknown> = { ...(values.judge ? {} : runJudge?.params ?? {}) };
  for (const p of values.param) {
    const kv = parseParam(p);
    if (!kv) {
      console.error(`parley eval: --param expects KEY=VALUE (got '${p}')`);
      return 2;
    }
    params[kv[0]] = kv[1];
  }
  // The judge's temperature is fixed at 0; a sampling param cannot override it.
  delete params['temperature'];
  // Loaded only now: the provider SDKs take a while to load, and argument errors should not wait for them.
  const { createClient } = await import('../../llm/index.js');
  let client: LlmClient;
  try {
    client = createClient({ spec, params, ...(values['base-url'] ? { baseURL: values['base-url'] } : {}), ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] } : {}) });
  } catch (err) {
    console.error(`parley eval: judge ${spec}: ${(err as Error).message}`);
    return 2;
  }
  const visibility = values.blind ? 'blind' : 'full';
  const total = loaded.run.episodes.length;
  console.error(`parley eval: ${total} episodes in ${dir}, judge ${spec} (${visibility}), concurrency ${concurrency}`);
  const tty = process.stderr.isTTY;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const result = await evaluateRun(loaded.run, {
      client,
      spec,
      visibility,
      concurrency,
      missingOnly: values.missing,
      signal: controller.signal,
      onProgress: (p) => {
        const line = `judged ${p.done}/${p.total} episodes · seats scored ${p.scoredSeats} · evaluation errors ${p.errorSeats}`;
        if (tty) process.stderr.write(`\r${line}`);
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
    if (controller.signal.aborted) return 130;
    // Evaluation errors are recorded results; but a judge that never answered usably is a failed command.
    return result.errorSeats > 0 && result.scoredSeats === 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
