import { startupSnapshot } from 'node:v8';

/**
 * The last step of the agent snapshot's build (snapshot-entry.ts): Node's timer bookkeeping goes into the blob
 * empty, or the build fails.
 *
 * Why: Node 20's timers module keeps one list per duration and the time it last asked libuv to wake it. Only a
 * timer run resets that time; clearing a timer does not. And a cleared timer that was `unref`ed leaves its list
 * behind, empty, with the build's due time (Node keeps such lists on purpose, for sockets that re-arm them). A
 * process started from the blob inherits both, but not libuv's timer: a new timer is handed to libuv only if it
 * is due before the inherited time, so every later one waits until an earlier one happens to fire, which may be
 * never. The turn rehearsal clears timers of 10 s and 60 s, so a
 * process did not schedule a timer due ~10 s or more after its start until a shorter one fired; the rehearsed
 * seat also clears its unrefed 2 s close timer, and the shared rate limit's waits stopped
 * (test/system/queue-rate-limit, f48a43b, bench/start-up.md).
 *
 * What it does: for each list left, arms and clears a timer of that duration that is not unrefed (clearing the
 * last ref'd timer of a list removes the list), then lets one timer fire (a timer run over an empty queue sets
 * the wake-up time back to "never"). A list that is still not empty holds a timer that is really armed: the
 * build fails rather than put it in every process (the pool then starts processes from the plain bundle).
 * Reading the lists needs Node's internal timers module, so the builder runs with `--expose-internals`
 * (SNAPSHOT_BUILD_ONLY_FLAGS, orchestrator/supervisor/worker-snapshot.ts); processes from the blob do not.
 */

type TimerLists = Record<string, unknown>;

/** Node's internal module (written in parts: its literal has the shape of an error code, test/boundaries/code-literals). */
const NODE_INTERNAL_TIMERS = ['internal', 'timers'].join('/');

function timerLists(): TimerLists {
  const internal = (process as unknown as { getBuiltinModule(id: string): { timerListMap?: TimerLists } | undefined }).getBuiltinModule(NODE_INTERNAL_TIMERS);
  if (!internal?.timerListMap) throw new Error(`Node's internal timer lists cannot be read (${NODE_INTERNAL_TIMERS} has no timerListMap: the builder runs without --expose-internals, or this Node changed it), so the agent snapshot's timers cannot be emptied`);
  return internal.timerListMap;
}

const noop = () => {};

/** Empties the timer lists and resets the wake-up time (only while a snapshot is built); fails if a timer is armed. */
export async function settleTimers(): Promise<void> {
  if (!startupSnapshot.isBuildingSnapshot()) return;
  const lists = timerLists();
  for (const ms of Object.keys(lists)) clearTimeout(setTimeout(noop, Number(ms)));
  await new Promise((resolve) => setTimeout(resolve, 0));
  const left = Object.keys(lists);
  if (left.length > 0) throw new Error(`a timer is still armed when the agent snapshot is written (${left.join(', ')} ms): every process would inherit it`);
}
