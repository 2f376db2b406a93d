/**
 * CPU an agent process spends to start (issue 44): fork → `ready`, and → `warmed` with an `openai:` policy
 * (its modules and light HTTP client loaded, as the pool warms every process of an LLM run), with and
 * without NODE_EXTRA_CA_CERTS, one process at a time, the variants interleaved so that load from others
 * on the machine falls on each alike. CPU is read from /proc/<pid>/stat (user + system, 10 ms ticks: the
 * medians of many processes are what to compare). Writes nothing; prints one line per variant.
 *   tsx bench/start-cpu.ts [--n 20] [--certs /etc/ssl/certs/ca-certificates.crt]
 * Used for bench/start-up.md.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { WorkerToParent } from '../protocol/index.js';
import { agentEntry, agentEnv, EXTRA_CA_ENV } from '../orchestrator/supervisor/agent-entry.js';
import { bundledWorker } from '../orchestrator/supervisor/worker-bundle.js';

const CLOCK_TICK_MS = 10;

/** User + system CPU of a live process so far, ms (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

interface Variant {
  name: string;
  certs: boolean;
  warm: boolean;
}

/** One agent process from the bundle: CPU at `ready` and, if asked, at `warmed`. */
async function startOne(bundle: string, v: Variant, certs: string): Promise<{ ready: number; warmed?: number }> {
  const env = agentEnv({ ...process.env, BENCH_START_KEY: 'bench', [EXTRA_CA_ENV]: v.certs ? certs : '' }, { tlsFree: !v.certs });
  // No execArgv: this runs under tsx, whose loader a fork would otherwise inherit.
  const child = fork(bundle, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env });
  try {
    const out: { ready: number; warmed?: number } = { ready: 0 };
    for (;;) {
      const [msg] = (await once(child, 'message')) as [WorkerToParent];
      if (msg.type === 'ready') {
        out.ready = cpuMs(child.pid!);
        if (!v.warm) return out;
        // Never called: warming makes one request to a server inside the process (llm/warm.ts).
        child.send({ type: 'warm', policies: [{ spec: 'openai:bench-model', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'BENCH_START_KEY', params: {} }] });
      } else if (msg.type === 'warmed') {
        out.warmed = cpuMs(child.pid!);
        return out;
      }
    }
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const n = argv.includes('--n') ? Number(argv[argv.indexOf('--n') + 1]) : 20;
  const certs = argv.includes('--certs') ? argv[argv.indexOf('--certs') + 1]! : '/etc/ssl/certs/ca-certificates.crt';
  const bundle = await bundledWorker(agentEntry());
  const variants: Variant[] = [
    { name: 'bot seat, with certificates', certs: true, warm: false },
    { name: 'bot seat, without', certs: false, warm: false },
    { name: 'LLM seat (warmed), with certificates', certs: true, warm: true },
    { name: 'LLM seat (warmed), without', certs: false, warm: true },
  ];
  const got = new Map(variants.map((v) => [v.name, { ready: [] as number[], warmed: [] as number[] }]));
  for (let i = 0; i < n; i++) {
    for (const v of variants) {
      const r = await startOne(bundle, v, certs);
      got.get(v.name)!.ready.push(r.ready);
      if (r.warmed !== undefined) got.get(v.name)!.warmed.push(r.warmed);
    }
  }
  console.log(`CPU of an agent process to start, median of ${n} (ms); certificates: ${certs}`);
  for (const v of variants) {
    const g = got.get(v.name)!;
    console.log(`  ${v.name.padEnd(38)} to ready ${median(g.ready)}${g.warmed.length ? `, to warmed ${median(g.warmed)}` : ''}`);
  }
}

await main();
