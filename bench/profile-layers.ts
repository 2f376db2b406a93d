/**
 * The layer a profile frame's module belongs to (bench/cpu-profile-summary.ts `--layers`): a flat profile,
 * where no function stands out, still shows what whole layers cost a turn (the HTTP client, ws, zod, the
 * cassette's file, prompt rendering, Node's event machinery, our own turn logic). Modules are cpu-profile-summary's
 * `moduleOf` names: a package, a project source file, a `node:` module, or a `(native)` frame.
 */
const LAYERS: Array<[string, RegExp]> = [
  // Samples of a process preempted in a write (or its thread-pool hand-off) land here: inflated under load.
  ['writes (system calls; preemption lands here)', /^\((writev|writeBuffers?|writeFileUtf8|writeUtf8String|writeLatin1String|write)\)$/],
  ['garbage collector', /garbage collector/],
  ['sockets and the HTTP client (node:http, net, streams, llm/openai-http.ts, llm/http1-*.ts)', /^node:(_http_|http$|https$|net$|tls$|_tls_|zlib$|buffer$|internal\/(streams|stream_base_commons|http|net|buffer))|openai-http\.ts$|http1-(pool|reply)\.ts$/],
  // The package (the orchestrator's server) and the agent's own seat client (agent-node/ws/), one layer.
  ['ws', /^ws$|^agent-node\/ws\//],
  ['zod and protocol/ (frame decode and checks)', /^zod$|^protocol\//],
  ['files (llm/cassette.ts, node:fs, file system calls)', /cassette\.ts$|^node:(fs$|internal\/fs\/)|^\((open|close|mkdir|rmdir|unlink|stat|lstat|readFileUtf8|FSReqCallback|openFileHandle)\)$/],
  ['prompt rendering', /\/(templates|render|agent-prompt|seat-prompt|paper-prompt|paper-render|game-prompt|quote-text|private-moves)\.ts$/],
  ['LLM client (openai, @mistralai, llm/)', /^(openai|@mistralai\/mistralai)$|^llm\//],
  ['Node: events, timers, abort signals, promises, nextTick', /^node:(events$|timers$|internal\/(process\/task_queues|event_target|abort_controller|timers|async_hooks|fixed_queue|errors|util|validators|process\/promises|linkedlist|priority_queue|perf))|^\((runMicrotasks|getLibuvNow|now)\)$/],
  ['agent turn logic (agent-node/, seat-client/, simulation/)', /^(agent-node|seat-client|simulation)\//],
  ['orchestrator and run directory (orchestrator/, run-dir/, disk/)', /^(orchestrator|run-dir|disk)\//],
  ['V8 and Node internals (program, compile, other node:)', /^\(+program\)+$|^\(anonymous\)$|^node:|^\(compile/],
];

export function layerOf(module: string): string {
  for (const [name, pattern] of LAYERS) if (pattern.test(module)) return name;
  return 'other';
}
