/**
 * The agent process as a V8 start-up snapshot (orchestrator/supervisor/worker-snapshot.ts builds it with
 * `node --build-snapshot`): this module and everything it imports are evaluated once, when the snapshot is
 * built, and every process started from the blob begins with that heap (the seat's zod schemas built, the
 * policy and protocol code loaded) instead of compiling and evaluating ~700 KB of modules again.
 *
 * Node 20's snapshot builder cannot load `node:http` (nor what needs it: ws, the HTTP clients), so the
 * snapshot's bundle takes them from `SNAPSHOT_RUNTIME`, filled here after deserialisation: Node's built-in
 * modules through `require`, the packages (ws, the LLM SDKs) from CommonJS bundles built beside the blob,
 * whose directory the supervisor passes as the process's script path (`process.argv[1]`). Nothing of a run
 * is in the blob: it is built from code alone, in an environment holding only the package root.
 */
// First: it guards the build against what would make processes share random state.
import { restoreRandomDraws } from './snapshot-build-guard.js';
import { dirname, resolve } from 'node:path';
import { startupSnapshot } from 'node:v8';
import { runWorker } from './worker-main.js';
import { compileHotFrameSchemas } from '../protocol/index.js';
import { rehearseFrameDecodes } from './snapshot-rehearsal.js';
import { rehearseSeatTurns } from './snapshot-turn-rehearsal.js';
import { rehearseLoopbackSockets } from './snapshot-socket-rehearsal.js';
import { settleTimers } from './snapshot-timers.js';

/**
 * The global the snapshot bundle's deferred modules load through: RUNTIME_GLOBAL of
 * orchestrator/supervisor/snapshot-deferred.ts, which writes them (this entry exports nothing: the
 * snapshot builder runs it as a script).
 */
const SNAPSHOT_RUNTIME = '__parleySnapshotRuntime';

// The LLM policy modules too (the builder runs the event loop empty before it snapshots): +10 KB of blob,
// and an LLM process no longer evaluates them when it warms (bench/start-up.md).
void import('./policies/llm/index.js');
// The fast paths of the frames every turn carries (protocol/decode.ts), generated once here rather than in
// every process at its first turn.
compileHotFrameSchemas();
// And the parsers zod generates at a frame's first decode (the welcome's, ~20 ms a process): from made-up
// frames, so the blob holds them compiled (snapshot-rehearsal.ts).
rehearseFrameDecodes();
// And one LLM seat turn per made-up welcome, on an in-memory client (snapshot-turn-rehearsal.ts): the
// builder runs the event loop empty before it snapshots, so the turns finish first.
// A failure only loses the warm-up (agent-node/snapshot-turn-rehearsal.test.ts checks every turn gives a move).
// Then Node's socket code, which those in-memory connections never reach, on loopback sockets (snapshot-socket-rehearsal.ts).
// Then, last, Node's timer lists are emptied: the rehearsals clear timers, and a list they leave would stall
// the later timers of every process started from the blob (snapshot-timers.ts). A timer still armed fails the
// build (the rejection is unhandled, which ends the builder).
void rehearseSeatTurns()
  .catch(() => 0)
  .then(() => rehearseLoopbackSockets().catch(() => 0))
  .then(settleTimers);

startupSnapshot.setDeserializeMainFunction(() => {
  restoreRandomDraws();
  // node:module is taken at the first deferred load, not imported: the builder warns that it does not carry its
  // state over. Not at start either: it loads Node's ES module loader with it (~2 M instructions a start, ~7 M
  // where the blob holds no code cache), and a bot or a light-path LLM seat may never load a deferred module.
  let fromDir: NodeJS.Require | undefined;
  const runtime = (name: string): unknown => {
    fromDir ??= process.getBuiltinModule('node:module').createRequire(resolve(dirname(process.argv[1] ?? '.'), 'runtime.cjs'));
    return fromDir(name.startsWith('node:') ? name : `./${name}.cjs`);
  };
  (globalThis as Record<string, unknown>)[SNAPSHOT_RUNTIME] = runtime;
  runWorker();
});
