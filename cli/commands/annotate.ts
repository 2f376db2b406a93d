import { resolve } from 'node:path';
import { recordedDefinition } from '../../simulation/index.js';
import { MODES, type Mode } from '../../protocol/index.js';
import { terminalSafe } from '../../text/terminal.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { Study } from '../../evaluator/human/study.js';
import { loadSecrets, secretsFile } from '../../evaluator/human/study-secrets.js';
import { closeServer, createHttpServer, listen } from '../../orchestrator/net/http-server.js';
import { webRoutes } from '../../orchestrator/net/web-routes.js';
import type { FlagSpecs } from '../args.js';
import { ALLOW_ORIGIN_FLAG, allowOrigins } from '../allow-origin.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { interruptSignal } from './run.js';

const FLAGS: FlagSpecs = {
  port: { type: 'number', describe: 'port to listen on (0: any free port; default 0)' },
  host: { type: 'string', metavar: 'ADDR', describe: 'address to listen on (default 127.0.0.1)' },
  out: { type: 'string', metavar: 'FILE', describe: 'answers, one JSON line each (appended; rerun with the same FILE to resume)' },
  annotators: { type: 'string', metavar: 'NAMES', describe: 'comma-separated annotator names; each gets a token and a link (kept in FILE.secrets.json, so a rerun prints the same links; add names on a rerun)' },
  'mode-a': { type: 'string', metavar: 'MODE', describe: 'which episodes of RUN_A (needed when it has several modes)' },
  'mode-b': { type: 'string', metavar: 'MODE', describe: 'which episodes of RUN_B' },
  'allow-origin': ALLOW_ORIGIN_FLAG,
};

/** `parley annotate`'s command line. */
export const spec: CommandSpec = {
  name: 'annotate',
  usage: 'parley annotate RUN_A RUN_B --out ANN.jsonl --annotators NAME,NAME… [--port P]',
  summary: `The paper's human naturalness study (appendix E): serves a page where annotators, each with their own
printed link (a token, kept in FILE.secrets.json), one answer per pair,
read two conversations of the same scenario and character pair (one from each run, in a random
order fixed per annotator and pair) with the setting, backgrounds and goals, and choose the more
natural one (\`Choose A\` / \`Choose B\`, optional reason). Each answer is appended to FILE at once;
stopping and rerunning resumes. Summarise with \`parley compare --human FILE\`. Ctrl-C stops.`,
  flags: FLAGS,
  positionals: { min: 2, max: 2, names: 'two run directories RUN_A RUN_B' },
};

function pickMode(run: RunDir, flag: unknown, which: string): Mode | string {
  if (typeof flag === 'string') return (MODES as readonly string[]).includes(flag) ? (flag as Mode) : `--mode-${which}: unknown mode '${flag}'`;
  const modes = [...new Set(run.episodes.map((e) => e.record.mode))];
  return modes.length === 1 ? modes[0]! : `${run.dir} has episodes in ${modes.join(', ') || 'no mode'}: choose one with --mode-${which}`;
}

/** `parley annotate RUN_A RUN_B --port P --out ANN.jsonl`. */
export const run = commandRun(spec, async (args) => {
  const out = args.flags.out as string | undefined;
  if (!out) throw new UsageError('--out FILE is required (where the answers go)');
  const runs: RunDir[] = [];
  for (const dir of args.positionals) {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) {
      console.error(terminalSafe(`parley annotate: ${loaded.error.message}`));
      return 1;
    }
    runs.push(loaded.run);
  }
  const [a, b] = runs as [RunDir, RunDir];
  const modeA = pickMode(a, args.flags['mode-a'], 'a');
  const modeB = pickMode(b, args.flags['mode-b'], 'b');
  for (const m of [modeA, modeB]) {
    if (!(MODES as readonly string[]).includes(m)) {
      console.error(terminalSafe(`parley annotate: ${m}`));
      return 2;
    }
  }
  const names = typeof args.flags.annotators === 'string' ? args.flags.annotators.split(',').filter((n) => n.trim()) : [];
  let study: Study;
  let links: Array<[string, string]>;
  try {
    const secrets = loadSecrets(resolve(out), names);
    links = Object.entries(secrets.tokens);
    if (!links.length) throw new UsageError(`--annotators NAME,NAME… is required: each annotator gets a token (none in ${secretsFile(resolve(out))} yet)`);
    study = new Study(a, modeA as Mode, b, modeB as Mode, resolve(out), secrets);
    // The form of run A's protocol: under --protocol paper the page shows what the paper's annotators saw and nothing more.
    study.view = recordedDefinition(a.run).scoring.naturalness;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    console.error(terminalSafe(`parley annotate: ${(err as Error).message}`));
    return 1;
  }
  if (!study.pairs.length) {
    console.error(`parley annotate: no scenario and pair was run (ok) in both ${a.dir} (${modeA}) and ${b.dir} (${modeB})`);
    return 1;
  }
  const port = (args.flags.port as number | undefined) ?? 0;
  const host = (args.flags.host as string | undefined) ?? '127.0.0.1';
  const server = createHttpServer(webRoutes({ page: 'annotate', extra: (req, res) => study.handle(req, res) }), { allowOrigins: allowOrigins(args.flags), host, log: (l) => console.log(l) });
  const interrupt = interruptSignal((l) => console.log(l));
  try {
    const actual = await listen(server, port, host);
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    console.log(terminalSafe(`annotation study: ${study.pairs.length} pair(s), A = ${a.dir} (${modeA}), B = ${b.dir} (${modeB}); answers → ${resolve(out)}`));
    // One link per annotator, to hand out privately; the token is in the fragment, so it is never sent in a
    // request line or a Referer. Names came from the command line or the secrets file (people write both):
    // quoted, and made terminal-safe (JSON quoting leaves C1 controls and bidirectional overrides as they are).
    for (const [name, token] of links) console.log(`annotator ${terminalSafe(JSON.stringify(name))}: http://${shown}:${actual}/#token=${token}`);
    await new Promise<void>((r) => interrupt.signal.addEventListener('abort', () => r(), { once: true }));
    return 0;
  } finally {
    interrupt.dispose();
    await closeServer(server);
  }
});
