/**
 * `npm run bench`: the runs-at-scale benchmark. Prints one JSON document to stdout and writes it to
 * runs/bench/results.json, which git ignores (progress goes to stderr); `--out bench/results.json`
 * updates the tracked figures on purpose. Cases, each in its own process where memory matters:
 *  - engine: N concurrent bot episodes of 20 turns over real agent processes and sockets, N = 1, 10, 100
 *    (default pool: one seat per process) and 500 (multiplexed);
 *  - latency: 50 LLM episodes in flight against the fake server answering after 200 ms;
 *  - tokens: prompt tokens per episode by mode and the share a prompt cache could reuse;
 *  - engine at 1,000 concurrent multiplexed episodes (peak memory, overhead p99);
 *  - queue: latency-bound runs through Redis with 1, 2 and 4 `parley worker` processes (bench/queue.ts).
 * Options: --quick (small sizes, for a smoke run), --out FILE (default runs/bench/results.json),
 * --cases a,b (only some of: engine, botprocess, latency, tokens, mux1000, queue, transport; default all).
 *  - botprocess: the peak memory of one bot agent process over 30 sequential bot episodes, next to an empty Node process.
 *  - transport: per-turn overhead of a socket.io seat (browser transport) next to a ws seat.
 * --only transport: just the transport case (printed, not written unless --out).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentEntry } from '../orchestrator/supervisor/agent-entry.js';
import { bundledWorker } from '../orchestrator/supervisor/worker-bundle.js';
import { workerSnapshot } from '../orchestrator/supervisor/worker-snapshot.js';
import { ONE_SEAT_PROCESS_NODE_FLAGS } from '../orchestrator/supervisor/one-seat-process-flags.js';
import { BOT_PROCESS_NODE_FLAGS } from '../orchestrator/supervisor/bot-process-flags.js';
import { botProcessCase } from './bot-process.js';
import { engineCase, type EngineFigures } from './engine.js';
import { latencyCase, type LatencyFigures } from './latency.js';
import { machine } from './machine.js';
import { queueCases, type QueueFigures } from './queue.js';
import { mergeSections, targetsOf, type BenchSections } from './results-file.js';
import { tokensByProtocol } from './tokens.js';
import { transportCase } from './transport.js';
import { TRACKED_RESULTS, writeReadmeTable } from './write-readme-table.js';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const outIndex = argv.indexOf('--out');
const outFile = outIndex >= 0 ? argv[outIndex + 1]! : fileURLToPath(new URL('../runs/bench/results.json', import.meta.url));
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const TURNS = quick ? 6 : 20;
const MULTIPLEX_SEATS = 50;
const sizes = quick ? [1, 4] : [1, 10, 100];
const muxSize = quick ? 20 : 500;
const latency = quick ? { concurrent: 5, turns: 4, delaysMs: [50] } : { concurrent: 50, turns: 20, delaysMs: [200, 1000] };

const casesIndex = argv.indexOf('--cases');
const cases = new Set(casesIndex >= 0 ? argv[casesIndex + 1]!.split(',') : ['engine', 'botprocess', 'latency', 'tokens', 'mux1000', 'queue', 'transport']);
const mux1000Size = quick ? 40 : 1000;
const queueSetup = quick ? { workerCounts: [1, 2], lanes: 2, turns: 4, delayMs: 50, waves: 3 } : { workerCounts: [1, 2, 4], lanes: 8, turns: 10, delayMs: 200, waves: 5 };

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
// The agent bundle and its start-up snapshot are built once per source change and cached (worker-bundle.ts,
// worker-snapshot.ts); a run after an edit or an install pays that build (~2–4 s) once. Built here first, so
// that the first case's pool start and first episode measure a run, not the build; its time is printed apart.
const bundleStart = Date.now();
await bundledWorker(agentEntry());
// One blob per set of pool flags (a blob loads only under its build flags): one-seat pools (the latency case at
// one seat a process) and bot-only ones start from blobs of their own.
const snapshot = await workerSnapshot()
  .then(() => workerSnapshot(ONE_SEAT_PROCESS_NODE_FLAGS))
  .then(() => workerSnapshot(BOT_PROCESS_NODE_FLAGS))
  .then(
    () => 'and its start-up snapshots',
    (err: Error) => `without a start-up snapshot (${err.message.split('\n')[0]})`,
  );
say(`agent bundle ready ${snapshot} in ${Date.now() - bundleStart} ms (built now, or found current in the cache)`);
const engine: EngineFigures[] = [];
if (cases.has('engine')) {
  for (const n of sizes) {
    say(`engine: ${n} concurrent episode(s), one seat per agent process`);
    engine.push(await engineCase(n, { turns: TURNS, seatsPerProcess: 1 }));
  }
  say(`engine: ${muxSize} concurrent episodes, multiplexed (${MULTIPLEX_SEATS} seats per agent process)`);
  engine.push(await engineCase(muxSize, { turns: TURNS, seatsPerProcess: MULTIPLEX_SEATS }));
}
if (cases.has('mux1000')) {
  say(`engine: ${mux1000Size} concurrent episodes, multiplexed (${MULTIPLEX_SEATS} seats per agent process)`);
  engine.push(await engineCase(mux1000Size, { turns: TURNS, seatsPerProcess: MULTIPLEX_SEATS }));
}

let botAgentProcess: BenchSections['botAgentProcess'] = null;
if (cases.has('botprocess')) {
  say(`bot process: ${quick ? 6 : 30} bot:chatter episodes of ${TURNS} turns one after another, one seat per agent process`);
  botAgentProcess = await botProcessCase({ episodes: quick ? 6 : 30, turns: TURNS });
}

const latencyRuns: LatencyFigures[] = [];
if (cases.has('latency')) {
  // The first delay is the headline case (the README's, issue 44's); the slower model shows how much of
  // the per-turn cost a longer wait hides.
  for (const delayMs of latency.delaysMs) {
    for (const seatsPerProcess of [1, 10]) {
      say(`latency: ${latency.concurrent} LLM episodes in flight, model answers after ${delayMs} ms, ${seatsPerProcess} seat(s) per agent process`);
      try {
        latencyRuns.push(await latencyCase({ concurrent: latency.concurrent, turns: latency.turns, delayMs, seatsPerProcess }));
      } catch (err) {
        // One failed case (e.g. agent processes not ready in time on an overloaded machine) keeps the others' figures.
        say(`latency case failed, left out: ${(err as Error).message.split('\n')[0]}`);
        process.exitCode = 1;
      }
    }
  }
}

const queue: QueueFigures[] = cases.has('queue') ? await queueCases(queueSetup, say) : [];

let tokens: BenchSections['tokens'] = null;
if (cases.has('tokens')) {
  say('tokens: prompt tokens and reusable prefix by protocol (parley, paper) and mode');
  tokens = await tokensByProtocol({ episodesPerMode: quick ? 2 : 10, turns: TURNS });
}

const transport: BenchSections['transport'] = [];
if (cases.has('transport')) {
  for (const t of ['ws', 'socket.io'] as const) {
    say(`transport: ${transportRuns.episodes} episodes of ${transportRuns.turns} turns, both seats over ${t}`);
    transport.push(await transportCase(t, transportRuns));
  }
}

const engineSizes = { muxSize, mux1000Size };
const fresh: BenchSections = { engine, botAgentProcess, latency: latencyRuns, queue, tokens, transport };
// Only some cases run into an existing file: the others' figures are kept from it (results-file.ts).
const previous = casesIndex >= 0 && existsSync(outFile) ? (JSON.parse(readFileSync(outFile, 'utf8')) as Partial<BenchSections>) : {};
const sections = casesIndex >= 0 ? mergeSections(fresh, previous, cases, engineSizes) : fresh;
const report = {
  benchmark: 'parley runs at scale',
  date: new Date().toISOString(),
  quick,
  machine: machine(),
  durationSeconds: Math.round((Date.now() - started) / 1000),
  method: {
    engine: `3×N bot:chatter episodes (${TURNS} turns, never ending early) with N lanes; figures from the steady window (every lane busy, agent processes warm: bench/window.ts). overheadMs: act received at the orchestrator's connection → next turn.request written (engine hook, process.hrtime). RSS: orchestrator VmHWM; agents sampled every 200 ms from outside (peak of the sum, and sum of per-process peaks; agentMaxPrivatePerProcess: the largest sampled RssAnon, the private part). `,
    botAgentProcess: 'bot:chatter episodes one after another (concurrency 1, one seat per agent process, each process plays many of them); at every accepted move each agent process\'s VmHWM (peak RSS) and RssAnon (private) from /proc; emptyNode: a Node process that only opens its IPC channel, measured the same way (RSS includes ~36 MB of node binary pages that all processes share).',
    latency: 'fake OpenAI-compatible server (in the bench process, not the orchestrator\'s) answering every move after a fixed delay; 5×N episodes with N lanes; steady window from the 2N-th recorded episode to the last episode prepared; its cpuMsPerTurn.agents: the CPU of the agent processes that had played a turn before the window opened ÷ the turns they played in it (a turn shared among the processes of its episode\'s seats), agentsAllProcesses: every process alive in the window (at one seat per process the pool is still starting processes then: their start-up counts there) ÷ all turns, agentProcesses: both parts; efficiency = measured episodes per minute in the window (turns per minute ÷ turns per episode) ÷ ideal N / (turns × delay). wholeRun: from the run\'s start to the last record (toReturnMs: to the run\'s return, its agent processes stopped and its files written; until 2026-11-28 the whole run ended there), including agent process start-up (episodes start once their seats\' processes are ready; poolStartMs: first process ready, firstEpisodeMs: every seat of the first episode joined, poolFullMs: whole pool), the first, cold episodes of every agent process and the tail; its cpuMsPerTurn.agents: all CPU of the agent processes (reaped children, start-up included) ÷ turns played. rssMB.agentMaxPerProcess: the highest VmHWM of one agent process; agentMaxPrivatePerProcess: the highest sampled RssAnon. Run at 200 ms and 1 s model delay; loadAverage: the machine\'s as the case started.',
    queue: `parley run --queue (coordinator in the bench process) with W parley worker processes on this machine, each running ${queueSetup.lanes} episodes at a time on a multiplexed pool (${queueSetup.lanes} seats per agent process), a local redis-server and the fake server answering every move after ${queueSetup.delayMs} ms; ${queueSetup.waves} waves of W×${queueSetup.lanes} episodes of ${queueSetup.turns} turns; rate from the end of the first wave to the last record; efficiency = that rate ÷ ideal W×lanes / (turns × delay).`,
    transport: 'agents episodes one after another, both seats played by in-process scripted clients (answer at once) over ws (/agent) or socket.io (/socket.io/, the browser transport) to the same orchestrator edge; overheadMs as in engine; turnMs: a seat\'s act sent → its next turn.request received, per turn, as the client sees it.',
    tokens: 'cassettes of a real run per mode (openai: seats on the fake server, which counts ~4 characters a token); prefix share = common prefix of a seat\'s prompt with its previous prompt (serialised messages) ÷ prompt length; per protocol (parley: constant text first, conversation, short turn line last; paper: SOTOPIA\'s order, turn-by-turn modes only).',
  },
  ...sections,
  targets: targetsOf(sections, engineSizes, latency.delaysMs[0]!),
};
const json = JSON.stringify(report, null, 2);
process.stdout.write(`${json}\n`);
if (!quick || outIndex >= 0) {
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${json}\n`);
}
// The tracked figures changed: the README's table follows them (readme-table.ts).
if (resolve(outFile) === TRACKED_RESULTS && writeReadmeTable()) say('README.md performance table regenerated from bench/results.json');
say(`done in ${report.durationSeconds} s${!quick || outIndex >= 0 ? `; written to ${outFile}` : ''}`);
