/**
 * CPU a `parley` command process spends from spawn to exit (issue 44, contract 6: the test suite spawns
 * ~530 of them), per kind of command the tests run most, for one or more checkouts of this package,
 * interleaved (round by round, the checkouts' order alternating) so that load from others on the machine
 * falls on each alike. Only the command's own process is counted (bench/cli-cpu-hook.cjs, preloaded,
 * reads process.cpuUsage() at exit), not its agent processes. Every command talks to a fake LLM server
 * (testkit/), without NODE_EXTRA_CA_CERTS, as in the tests. `help` is `parley --help`; `<kind> --help`
 * rows are the start-up of a command (its modules loaded, nothing done).
 *   tsx bench/cli-cpu.ts [--n 7] [--kinds run-bots,eval,…] [VARIANT …]
 * VARIANT: a package root (default this one), optionally followed by `+NAME=VALUE` environment settings.
 * Used for bench/start-up.md. Writes only under the system's temp directory.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeLlmServer } from '../testkit/fake-llm-server.js';

const HOOK = fileURLToPath(new URL('./cli-cpu-hook.cjs', import.meta.url));
const HERE = fileURLToPath(new URL('../', import.meta.url));

interface Fixtures {
  tmp: string;
  botRun: string;
  botEpisode: string;
  llmRun: string;
}

let serial = 0;
const fresh = (f: Fixtures, name: string) => join(f.tmp, `${name}-${serial++}`);

/** The command lines measured, by kind; each gets fresh output paths. */
const KINDS: Record<string, (f: Fixtures) => string[]> = {
  help: () => ['--help'],
  'run --help': () => ['run', '--help'],
  'run-bots': (f) => ['run', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '2', '--out', fresh(f, 'run')],
  'run-llm': (f) => ['run', '--scenarios', 'builtin', '--modes', 'agents', '--agent1', 'openai:fake-agent', '--agent2', 'openai:fake-agent', '--max-turns', '2', '--limit', '2', '--out', fresh(f, 'run')],
  'eval --help': () => ['eval', '--help'],
  eval: (f) => ['eval', f.llmRun, '--judge', 'openai:gpt-4'],
  report: (f) => ['report', f.llmRun],
  export: (f) => ['export', f.llmRun, '--format', 'csv', '--out', `${fresh(f, 'export')}.csv`],
  compare: (f) => ['compare', f.llmRun, f.llmRun, '--judge', 'openai:gpt-4', '--mode-a', 'agents', '--mode-b', 'agents', '--orders', 'one', '--out', `${fresh(f, 'compare')}.jsonl`],
  fork: (f) => ['fork', f.botRun, f.botEpisode, '--at', '2', '--agent1', 'bot', '--agent2', 'bot', '--out', fresh(f, 'fork')],
  show: (f) => ['show', f.botRun],
  'scenarios list': () => ['scenarios', 'list', 'builtin'],
};

/** One command of `root`'s CLI: its process's CPU (ms), or throws with its output if it failed. */
async function cpuOf(variant: string, args: string[], baseEnv: NodeJS.ProcessEnv, log: string): Promise<Sample> {
  const [root, ...sets] = variant.split('+');
  const env = { ...baseEnv, ...Object.fromEntries(sets.map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)])) };
  writeFileSync(log, '');
  const child = spawn(process.execPath, ['--require', HOOK, join(root!, 'bin', 'parley.js'), ...args], { cwd: root!, env: { ...env, PARLEY_CLI_CPU_LOG: log }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`parley ${args.join(' ')} (${root}) exited ${code}:\n${out}`);
  const line = readFileSync(log, 'utf8').trim().split('\n')[0]!;
  return JSON.parse(line) as Sample;
}

async function fixtures(root: string, env: NodeJS.ProcessEnv, log: string): Promise<Fixtures> {
  const tmp = mkdtempSync(join(tmpdir(), 'parley-cli-cpu-'));
  const f: Fixtures = { tmp, botRun: join(tmp, 'bots'), llmRun: join(tmp, 'llm'), botEpisode: '' };
  await cpuOf(root, KINDS['run-bots']!(f).slice(0, -1).concat(f.botRun), env, log);
  await cpuOf(root, KINDS['run-llm']!(f).slice(0, -1).concat(f.llmRun), env, log);
  f.botEpisode = (JSON.parse(readFileSync(join(f.botRun, 'episodes.jsonl'), 'utf8').split('\n')[0]!) as { episodeId: string }).episodeId;
  return f;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** One process: its CPU (ms) and minor page faults (each ~10-20 us of system time on this project's VMs). */
interface Sample {
  cpuMs: number;
  faults: number;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string) => (argv.includes(name) ? argv.splice(argv.indexOf(name), 2)[1] : undefined);
  const n = Number(opt('--n') ?? 7);
  const kinds = (opt('--kinds') ?? Object.keys(KINDS).join(',')).split(',');
  const roots = (argv.length ? argv : [HERE]).map((r) => [resolve(r.split('+')[0]!), ...r.split('+').slice(1)].join('+'));
  await using server = await startFakeLlmServer();
  const env = { ...process.env, ...server.env(), NODE_EXTRA_CA_CERTS: '' };
  const log = join(tmpdir(), `parley-cli-cpu-${process.pid}.log`);
  const fx = new Map<string, Fixtures>();
  for (const root of roots) fx.set(root, await fixtures(root, env, log));
  const got = new Map(roots.map((r) => [r, new Map(kinds.map((k) => [k, [] as Sample[]]))]));
  try {
    for (let i = 0; i < n; i++) {
      for (const kind of kinds) {
        const order = i % 2 ? [...roots].reverse() : roots;
        for (const root of order) got.get(root)!.get(kind)!.push(await cpuOf(root, KINDS[kind]!(fx.get(root)!), env, log));
      }
    }
  } finally {
    for (const f of fx.values()) rmSync(f.tmp, { recursive: true, force: true });
    rmSync(log, { force: true });
  }
  console.log(`CPU of one parley command process (ms) / its minor page faults, medians of ${n}, ${roots.length > 1 ? 'interleaved' : ''}`);
  console.log(`| command | ${roots.join(' | ')} |`);
  console.log(`|---|${roots.map(() => '---').join('|')}|`);
  for (const kind of kinds) console.log(`| ${kind} | ${roots.map((r) => `${median(got.get(r)!.get(kind)!.map((s) => s.cpuMs)).toFixed(0)} / ${median(got.get(r)!.get(kind)!.map((s) => s.faults))}`).join(' | ')} |`);
}

await main();
