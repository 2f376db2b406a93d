import { relative, resolve } from 'node:path';
import { RunConfig } from '../../orchestrator/run-config.js';
import { runExperiment } from '../run-experiment.js';
import type { FlagSpecs } from '../args.js';
import { commandRun, positiveInt, UsageError, type CommandSpec } from '../command.js';
import { outDirProblem } from '../out-guard.js';
import { freshRunDir } from '../fresh-run-dir.js';
import { interruptSignal, reportRun } from './run.js';
import { RunPaths } from '../../run-dir/index.js';

const DEMO_FLAGS: FlagSpecs = {
  out: { type: 'string', metavar: 'DIR', describe: 'run directory (default: a fresh runs/demo-<time>)' },
  concurrency: { type: 'number', describe: 'episodes in flight at once (default 4)' },
};

/** `parley demo`'s command line. */
export const spec: CommandSpec = {
  name: 'demo',
  usage: 'parley demo [--out DIR]',
  summary: 'Offline demo: built-in scenarios, all three modes, bots in separate processes; no key, no network.',
  flags: DEMO_FLAGS,
};

/** A fresh directory under runs/ named after the time. */
/**
 * `parley demo` (= `npm start`): the offline demo. Built-in scenarios in all three modes, played by the
 * deterministic bots in separate agent processes; no key, no network. Prints per mode the number of
 * episodes and the task success rate.
 */
export const run = commandRun(spec, async (args) => {
  const out = (args.flags.out as string | undefined) ?? freshRunDir('demo');
  const outProblem = outDirProblem(out);
  if (outProblem) throw new UsageError(outProblem);
  const concurrency = positiveInt(args.flags, 'concurrency', 4);
  const config = RunConfig.parse({ scenarios: 'builtin', modes: ['script', 'agents', 'mindreaders'], out, concurrency, turnDeadlineMs: 30_000 });
  const log = (l: string) => console.log(l);
  const shown = relative(process.cwd(), resolve(out)) || '.';
  log(`parley demo: built-in scenarios × script, agents, mindreaders, bot agents in separate processes`);
  log(`run directory: ${shown}`);
  const t0 = Date.now();
  const interrupt = interruptSignal(log);
  try {
    const result = await runExperiment(config, { log, hosting: 'local', signal: interrupt.signal });
    if (interrupt.signal.aborted) {
      log(`interrupted after ${result.ran.length} episode(s); rerun with --out ${shown} to resume`);
      return 130;
    }
    const code = reportRun(result, log);
    log(`done in ${((Date.now() - t0) / 1000).toFixed(1)}s — records: ${new RunPaths(shown).episodesJsonl}, ledgers: ${new RunPaths(shown).ledgersDir}/`);
    return result.stats.episodes.failed > 0 ? 1 : code;
  } finally {
    interrupt.dispose();
  }
});
