/**
 * The latency case (bench/latency.ts: 5 × lanes episodes of 20 turns, the model answering after 200 ms)
 * played by Parley's agent and by the floor seat (bench/floor-seat.ts) in turn, paired: A B, B A, ...
 * so that load from others falls on both alike (bench/floor.md). The floor seats are spawned by the same
 * pool as Parley's agents (RunProbes.workerEntry): at one seat a process a few at a time as lanes need
 * them, at ten seats multiplexed alike (the floor as one CommonJS file: floor-build.ts). One line a run: agent CPU a warm turn (the steady window,
 * bench/window.ts), the whole run's efficiency, CPU by party over the whole run (orchestrator, agents,
 * fake server: the budget of 2 cores), and for the floor its processes' CPU and faults from spawn to
 * their first seat joined (medians).
 *   tsx bench/floor-run.ts [--lanes 50] [--seats 1] [--pairs 3]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { floorSeatScript } from './floor-build.js';
import { latencyCase } from './latency.js';

const FLOOR_ENTRY = await floorSeatScript();

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1]! : NaN);

async function one(kind: 'parley' | 'floor', lanes: number, seats: number): Promise<string> {
  const load = loadavg()[0]!.toFixed(1);
  const dir = mkdtempSync(join(tmpdir(), 'floor-run-'));
  const joinedLog = join(dir, 'joined.txt');
  try {
    const before = process.cpuUsage();
    const r = await latencyCase(
      { concurrent: lanes, turns: 20, delayMs: 200, seatsPerProcess: seats, ...(kind === 'floor' ? { workerEntry: FLOOR_ENTRY } : {}) },
      kind === 'floor' ? { PARLEY_FLOOR_JOINED_LOG: joinedLog } : {},
    );
    const serverCpu = process.cpuUsage(before);
    const turns = r.window.turns > 0 ? r.requests : 1;
    const wr = r.wholeRun;
    const s = (msPerTurn: number) => ((msPerTurn * turns) / 1000).toFixed(1);
    const serverS = (serverCpu.user + serverCpu.system) / 1e6;
    let joined = '';
    if (kind === 'floor') {
      const rows = readFileSync(joinedLog, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
      joined = `, spawn→joined ${median(rows.map((x) => x[0]!)).toFixed(1)} ms CPU ${median(rows.map((x) => x[1]!))} faults (median of ${rows.length})`;
    }
    return (
      `${kind.padEnd(6)} seats ${seats}: warm agent ${r.window.cpuMsPerTurn.agents} ms/turn (all ${r.window.cpuMsPerTurn.agentsAllProcesses}, whole ${wr.cpuMsPerTurn.agents}), ` +
      `orchestrator ${r.window.cpuMsPerTurn.orchestrator} (whole ${wr.cpuMsPerTurn.orchestrator}), fake server ${((serverS * 1000) / Math.max(1, r.requests)).toFixed(3)} ms/request; ` +
      `eff window ${r.window.efficiency} whole ${wr.efficiency} (${(wr.ms / 1000).toFixed(1)} s), pool full ${r.poolFullMs} ms, first episode ${r.firstEpisodeMs} ms, ` +
      `failed ${r.failed}/${r.episodes}, processes ${r.agentProcesses}; whole-run CPU-s: orchestrator ${s(wr.cpuMsPerTurn.orchestrator)} agents ${s(wr.cpuMsPerTurn.agents)} server ${serverS.toFixed(1)}; ` +
      `machine busy ${r.window.machineCpuBusy}${joined}; load ${load}`
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lanes = arg('lanes', 50);
const seats = arg('seats', 1);
const pairs = arg('pairs', 3);
for (let i = 0; i < pairs; i++) {
  const order: ('parley' | 'floor')[] = i % 2 === 0 ? ['parley', 'floor'] : ['floor', 'parley'];
  for (const kind of order) console.log(await one(kind, lanes, seats));
}
