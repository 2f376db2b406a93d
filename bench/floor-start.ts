/**
 * Start-up of one pooled seat process, Parley's agent against the floor seat (bench/floor.md): fork →
 * `ready` → `warmed` (an `openai:` policy, as the pool warms every process of an LLM run before its
 * first seat), launched as the one-seat pool launches them (orchestrator/supervisor/worker-launch.ts
 * chooseLaunch with the one-seat flags: Parley's from its start-up snapshot, the floor as one CommonJS file, floor-build.ts),
 * one process at a time, the two interleaved. CPU: the process's threads' run time (/proc/<pid>/task/*
 * /schedstat); faults: minor faults (/proc/<pid>/stat); peak RSS: VmHWM. Medians.
 *   tsx bench/floor-start.ts [--n 20]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnv } from '../orchestrator/supervisor/agent-entry.js';
import { ONE_SEAT_PROCESS_NODE_FLAGS, perProcessSeed } from '../orchestrator/supervisor/one-seat-process-flags.js';
import { chooseLaunch } from '../orchestrator/supervisor/worker-launch.js';
import { floorSeatScript } from './floor-build.js';

const FLOOR_ENTRY = await floorSeatScript();

const cpuMs = (pid: number) => readdirSync(`/proc/${pid}/task`).reduce((sum, t) => sum + Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
const faults = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
};
const peakMB = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

type Sample = { readyMs: number; readyFaults: number; warmedMs: number; warmedFaults: number; warmedMB: number };

async function startOne(path: string, execArgv: string[]): Promise<Sample> {
  const argv = [...execArgv, ...perProcessSeed(execArgv)];
  const child = fork(path, [], { execArgv: argv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: agentEnv({ ...process.env, FLOOR_START_KEY: 'bench' }, { tlsFree: true }) });
  const pid = child.pid!;
  try {
    const s = { readyMs: 0, readyFaults: 0, warmedMs: 0, warmedFaults: 0, warmedMB: 0 };
    for (;;) {
      const [msg] = (await once(child, 'message')) as [{ type: string; error?: string }];
      if (msg.type === 'ready') {
        [s.readyMs, s.readyFaults] = [cpuMs(pid), faults(pid)];
        child.send({ type: 'warm', policies: [{ spec: 'openai:bench-model', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'FLOOR_START_KEY', params: {} }] });
      } else if (msg.type === 'warmed') {
        if (msg.error) throw new Error(`warming failed: ${msg.error}`);
        [s.warmedMs, s.warmedFaults, s.warmedMB] = [cpuMs(pid), faults(pid), peakMB(pid)];
        return s;
      }
    }
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const n = process.argv.includes('--n') ? Number(process.argv[process.argv.indexOf('--n') + 1]) : 20;
const flags = [...ONE_SEAT_PROCESS_NODE_FLAGS];
const parley = await chooseLaunch({ v8Flags: flags });
const floor = await chooseLaunch({ workerPath: FLOOR_ENTRY, v8Flags: flags });
// The least a pooled Node process can be: say ready, answer warm (no module of its own loaded).
const bare = join(mkdtempSync(join(tmpdir(), 'floor-start-')), 'bare.cjs');
writeFileSync(bare, "process.on('message', (m) => m.type === 'warm' && process.send({ type: 'warmed' })); process.on('disconnect', () => process.exit(0)); process.send({ type: 'ready' });\n");
const launches = {
  parley: { path: parley.path, execArgv: [...parley.execArgv, ...(parley.plain !== undefined ? [] : flags)] },
  floor: { path: floor.path, execArgv: [...floor.execArgv, ...flags] },
  'floor, no --predictable': { path: floor.path, execArgv: [...floor.execArgv] },
  'bare node': { path: bare, execArgv: [...flags] },
};
type Kind = keyof typeof launches;
const kinds = Object.keys(launches) as Kind[];
const got = Object.fromEntries(kinds.map((k) => [k, [] as Sample[]])) as Record<Kind, Sample[]>;
const load = loadavg()[0]!.toFixed(1);
for (let i = 0; i < n; i++) for (const k of i % 2 ? [...kinds].reverse() : kinds) got[k].push(await startOne(launches[k].path, launches[k].execArgv));
console.log(`Seat process start, median of ${n}, load ${load} → ${loadavg()[0]!.toFixed(1)}`);
for (const [k, s] of Object.entries(got)) {
  const at = (f: keyof Sample) => median(s.map((x) => x[f]));
  console.log(`  ${k.padEnd(24)} ready ${at('readyMs').toFixed(1)} ms ${at('readyFaults')} faults; warmed ${at('warmedMs').toFixed(1)} ms ${at('warmedFaults')} faults ${at('warmedMB').toFixed(1)} MB (${launches[k as Kind].execArgv.filter((a) => !a.includes('/')).join(' ') || 'no flags'})`);
}
