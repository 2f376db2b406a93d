/**
 * `npm run bench`: the runs-at-scale benchmark. Prints one JSON document to stdout and writes it to
 * bench/results.json (progress goes to stderr). Cases, each in its own process where memory matters:
 *  - engine: N concurrent bot episodes of 20 turns over real agent processes and sockets, N = 1, 10, 100
 *    (default pool: one seat per process) and 500 (multiplexed);
 *  - latency: 50 LLM episodes in flight against the fake server answering after 200 ms;
 *  - tokens: prompt tokens per episode by mode and the share a prompt cache could reuse;
 *  - transport: per-turn overhead of a socket.io seat (browser transport) next to a ws seat.
 * Options: --quick (small sizes, for a smoke run), --out FILE (default bench/results.json),
 * --only transport (just the transport case; printed, not written unless --out).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { engineCase, type EngineFigures } from './engine.js';
import { latencyCase, type LatencyFigures } from './latency.js';
import { machine } from './machine.js';
import { tokensByMode } from './tokens.js';
import { transportCase } from './transport.js';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const outIndex = argv.indexOf('--out');
const outFile = outIndex >= 0 ? argv[outIndex + 1]! : fileURLToPath(new URL('./results.json', import.meta.url));
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const TURNS = quick ? 6 : 20;
const MULTIPLEX_SEATS = 50;
const sizes = quick ? [1, 4] : [1, 10, 100];
const muxSize = quick ? 20 : 500;
const latency = quick ? { concurrent: 5, turns: 4, delayMs: 50 } : { concurrent: 50, turns: 20, delayMs: 200 };

const started = Date.now();
const transportRuns = { episodes: quick ? 2 : 10, turns: TURNS };
if (argv.includes('--only') && argv[argv.indexOf('--only') + 1] === 'transport') {
  const figures = [];
  for (const t of ['ws', 'socket.io'] as const) {
    say(`transport: ${transportRuns.episodes} episodes of ${transportRuns.turns} turns, both seats over ${t}`);
    figures.push(await transportCase(t, transportRuns));
  }
  const json = JSON.stringify({ benchmark: 'parley transports', date: new Date().toISOString(), quick, machine: machine(), transport: figures }, null, 2);
  process.stdout.write(`${json}\n`);
  if (outIndex >= 0) writeFileSync(outFile, `${json}\n`);
  process.exit(0);
}
const engine: EngineFigures[] = [];
for (const n of sizes) {
  say(`engine: ${n} concurrent episode(s), one seat per agent process`);
  engine.push(await engineCase(n, { turns: TURNS, seatsPerProcess: 1 }));
}
say(`engine: ${muxSize} concurrent episodes, multiplexed (${MULTIPLEX_SEATS} seats per agent process)`);
engine.push(await engineCase(muxSize, { turns: TURNS, seatsPerProcess: MULTIPLEX_SEATS }));

const latencyRuns: LatencyFigures[] = [];
for (const seatsPerProcess of [1, 10]) {
  say(`latency: ${latency.concurrent} LLM episodes in flight, model answers after ${latency.delayMs} ms, ${seatsPerProcess} seat(s) per agent process`);
  latencyRuns.push(await latencyCase({ ...latency, seatsPerProcess }));
}

const transport = [];
for (const t of ['ws', 'socket.io'] as const) {
  say(`transport: ${transportRuns.episodes} episodes of ${transportRuns.turns} turns, both seats over ${t}`);
  transport.push(await transportCase(t, transportRuns));
}

say('tokens: prompt tokens and reusable prefix by mode');
const tokens = await tokensByMode({ episodesPerMode: quick ? 2 : 10, turns: TURNS });

const at100 = engine.find((e) => e.concurrentEpisodes === 100 && !e.multiplexed);
const mux = engine.find((e) => e.multiplexed);
const report = {
  benchmark: 'parley runs at scale',
  date: new Date().toISOString(),
  quick,
  machine: machine(),
  durationSeconds: Math.round((Date.now() - started) / 1000),
  method: {
    engine: `3×N bot:chatter episodes (${TURNS} turns, never ending early) with N lanes; figures from the steady window (every lane busy, agent processes warm: bench/window.ts). overheadMs: act received at the orchestrator's connection → next turn.request written (engine hook, process.hrtime). RSS: orchestrator VmHWM; agents sampled every 200 ms from outside (peak of the sum, and sum of per-process peaks).`,
    latency: 'fake OpenAI-compatible server (in the bench process, not the orchestrator\'s) answering every move after a fixed delay; 5×N episodes with N lanes; steady window from the 2N-th recorded episode (every agent process has played LLM turns before) to the last episode prepared; efficiency = measured episodes per minute in the window (turns per minute ÷ turns per episode) ÷ ideal N / (turns × delay). wholeRun: from the pool being ready to the last record, including the first, cold episodes of every agent process and the tail.',
    transport: 'agents episodes one after another, both seats played by in-process scripted clients (answer at once) over ws (/agent) or socket.io (/socket.io/, the browser transport) to the same orchestrator edge; overheadMs as in engine; turnMs: a seat\'s act sent → its next turn.request received, per turn, as the client sees it.',
    tokens: 'cassettes of a real run per mode (openai: seats on the fake server, which counts ~4 characters a token); prefix share = common prefix of a seat\'s prompt with its previous prompt (serialised messages) ÷ prompt length.',
  },
  engine,
  latency: latencyRuns,
  tokens,
  transport,
  targets: {
    overheadP99Under5msAt100: at100 ? { p99Ms: at100.overheadMs.p99, met: at100.overheadMs.p99 < 5 } : null,
    efficiencyAtLeast0_9: latencyRuns.map((l) => ({ seatsPerProcess: l.seatsPerProcess, efficiency: l.window.efficiency, met: l.window.efficiency >= 0.9 })),
    multiplexed500Under4GB: mux ? { concurrentEpisodes: mux.concurrentEpisodes, totalPeakMB: mux.rssMB.totalPeak, met: mux.rssMB.totalPeak < 4096 } : null,
  },
};
const json = JSON.stringify(report, null, 2);
process.stdout.write(`${json}\n`);
if (!quick || outIndex >= 0) writeFileSync(outFile, `${json}\n`);
say(`done in ${report.durationSeconds} s${!quick || outIndex >= 0 ? `; written to ${outFile}` : ''}`);
