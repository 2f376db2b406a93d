/**
 * CPU an agent process spends to start (issue 44): fork → `ready`, and → `warmed` with an `openai:` policy
 * (its modules and light HTTP client loaded, as the pool warms every process of an LLM run), from the plain
 * bundle and from the start-up snapshot (orchestrator/supervisor/worker-snapshot.ts), optionally with
 * NODE_EXTRA_CA_CERTS too; one process at a time, the variants interleaved so that load from others on the
 * machine falls on each alike. CPU is the sum of the process's threads' run time (/proc/<pid>/task/*
 * /schedstat, ns); peak RSS is VmHWM at the message. Writes nothing; prints one line per variant (medians).
 *   tsx bench/start-cpu.ts [--n 20] [--certs /etc/ssl/certs/ca-certificates.crt]
 * Used for bench/start-up.md.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import type { WorkerToParent } from '../protocol/index.js';
import { agentEntry, agentEnv, EXTRA_CA_ENV } from '../orchestrator/supervisor/agent-entry.js';
import { bundledWorker } from '../orchestrator/supervisor/worker-bundle.js';
import { snapshotArgs, workerSnapshot } from '../orchestrator/supervisor/worker-snapshot.js';

/** Run time of a live process's threads so far, ms (Linux). */
function cpuMs(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).reduce((sum, t) => sum + Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
}

/** Peak resident memory of a live process so far, MB. */
const peakRssMB = (pid: number): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

interface Variant {
  name: string;
  certs: boolean;
  warm: boolean;
  snapshot: boolean;
}

interface Sample {
  ready: number;
  readyRss: number;
  warmed?: number;
  warmedRss?: number;
}

type Start = { path: string; execArgv: string[] };

/** One agent process: CPU and peak RSS at `ready` and, if asked, at `warmed`. */
async function startOne(start: Start, v: Variant, certs: string): Promise<Sample> {
  const env = agentEnv({ ...process.env, BENCH_START_KEY: 'bench', [EXTRA_CA_ENV]: v.certs ? certs : '' }, { tlsFree: !v.certs });
  // execArgv given: this runs under tsx, whose loader a fork would otherwise inherit.
  const child = fork(start.path, [], { execArgv: start.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env });
  try {
    const out: Sample = { ready: 0, readyRss: 0 };
    for (;;) {
      const [msg] = (await once(child, 'message')) as [WorkerToParent];
      if (msg.type === 'ready') {
        [out.ready, out.readyRss] = [cpuMs(child.pid!), peakRssMB(child.pid!)];
        if (!v.warm) return out;
        // Never called: warming makes one request to a server inside the process (llm/warm.ts).
        child.send({ type: 'warm', policies: [{ spec: 'openai:bench-model', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'BENCH_START_KEY', params: {} }] });
      } else if (msg.type === 'warmed') {
        if (msg.error) throw new Error(`warming failed: ${msg.error}`);
        [out.warmed, out.warmedRss] = [cpuMs(child.pid!), peakRssMB(child.pid!)];
        return out;
      }
    }
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function variantsOf(withCerts: boolean): Variant[] {
  const out: Variant[] = [];
  for (const certs of withCerts ? [true, false] : [false]) {
    for (const warm of [false, true]) {
      for (const snapshot of [false, true]) {
        out.push({ name: `${warm ? 'LLM seat (warmed)' : 'bot seat'}, ${snapshot ? 'snapshot' : 'bundle'}${certs ? ', certificates' : ''}`, certs, warm, snapshot });
      }
    }
  }
  return out;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const n = argv.includes('--n') ? Number(argv[argv.indexOf('--n') + 1]) : 20;
  const certs = argv.includes('--certs') ? argv[argv.indexOf('--certs') + 1]! : '';
  const bundle: Start = { path: await bundledWorker(agentEntry()), execArgv: [] };
  const snap = await workerSnapshot();
  const snapshot: Start = { path: snap.script, execArgv: snapshotArgs(snap) };
  const variants = variantsOf(certs !== '');
  const got = new Map(variants.map((v) => [v.name, [] as Sample[]]));
  for (let i = 0; i < n; i++) {
    for (const v of variants) got.get(v.name)!.push(await startOne(v.snapshot ? snapshot : bundle, v, certs));
  }
  console.log(`Agent process start, median of ${n}: CPU ms, peak RSS MB${certs ? `; certificates: ${certs}` : ''}; load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
  for (const v of variants) {
    const s = got.get(v.name)!;
    const at = (k: keyof Sample) => median(s.map((x) => x[k] ?? 0)).toFixed(1);
    console.log(`  ${v.name.padEnd(42)} ready ${at('ready')} ms ${at('readyRss')} MB${v.warm ? `, warmed ${at('warmed')} ms ${at('warmedRss')} MB` : ''}`);
  }
}

await main();
