/**
 * Node flags for agent processes that only ever play bots, one seat at a time (a local run whose every
 * hosted policy is a `bot:`, not multiplexed): no optimising compilers (TurboFan, Maglev) and V8's size-over-speed heuristics. A bot does
 * microseconds of work a turn, so optimised code buys nothing, while the compilers' code and the larger
 * heap cost each process memory. Measured on Node 20 (30 bot:chatter episodes of 20 turns, one seat per
 * process): peak RSS 65.5 → 56.3 MB, private (RssAnon) 24.3 → 18.6 MB, agent CPU a turn about the same.
 * Not `--lite-mode` (smaller still): it implies `--jitless`, which removes WebAssembly, and Node's fetch
 * (undici, hence the LLM SDKs) needs it — a process must stay able to play any seat it is handed.
 * The price, at start: with any V8 flag on its command line Node compiles its own modules afresh (its
 * built-in code cache holds for the default flags only), ~24 ms more CPU to `ready` (median 90 → 114 ms).
 * Setting the same flags from inside the process once started (v8.setFlagsFromString) keeps the cache but
 * not the memory: --optimize-for-size no longer applies to the heap (peak RSS 54.7 → 58.8 MB, 30 episodes).
 */
export const BOT_PROCESS_NODE_FLAGS: readonly string[] = ['--optimize-for-size', '--no-opt', '--no-maglev'];
