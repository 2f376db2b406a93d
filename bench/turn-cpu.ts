/**
 * Agent CPU per warm turn at a reduced size, for A/B runs of a per-turn change (issue 44, contract 1):
 * the latency case (latency.ts: every seat an `openai:` policy on the fake server) with fewer lanes,
 * repeated; prints one line per run with the window's figures (agents: the warm processes' CPU ÷ their
 * turns; all: every agent process alive in the window; whole: the whole run). Run the same command from two
 * checkouts in turn (A, B, A, B, ...) so that load from others falls on each alike.
 *   tsx bench/turn-cpu.ts [--lanes 10] [--seats 10] [--turns 20] [--runs 1]
 */
import { loadavg } from 'node:os';
import { latencyCase } from './latency.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const lanes = arg('lanes', 10);
const seatsPerProcess = arg('seats', 10);
const turns = arg('turns', 20);
const runs = arg('runs', 1);
for (let i = 0; i < runs; i++) {
  const load = loadavg()[0]!.toFixed(1);
  // This process runs the fake LLM server (bench/latency.ts): its CPU competes with the case's on the machine.
  const before = process.cpuUsage();
  const r = await latencyCase({ concurrent: lanes, turns, delayMs: 200, seatsPerProcess });
  const server = process.cpuUsage(before);
  const serverMsPerTurn = Math.round(((server.user + server.system) / 1000 / Math.max(1, r.requests)) * 1000) / 1000;
  const c = r.window.cpuMsPerTurn;
  const wr = r.wholeRun;
  console.log(`lanes ${lanes} seats/process ${seatsPerProcess}: agents ${c.agents} ms/turn (all ${c.agentsAllProcesses}, whole ${wr.cpuMsPerTurn.agents}), orchestrator ${c.orchestrator} (whole ${wr.cpuMsPerTurn.orchestrator}), fake server ${serverMsPerTurn} a request, efficiency ${r.window.efficiency} (whole ${wr.efficiency}${wr.toReturnMs ? `, to the run's return ${Math.round(wr.efficiency * (wr.ms / wr.toReturnMs) * 1000) / 1000}` : ''}), first episode ${r.firstEpisodeMs} ms, pool full ${r.poolFullMs} ms, window turns ${r.window.turns}, agent peak RSS ${r.rssMB.agentMaxPerProcess} MB, load ${load}`);
}
