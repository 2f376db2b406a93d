import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { acquireRunLock, RunPaths } from '../../run-dir/index.js';
import { runStudy } from '../../orchestrator/study/study-server.js';
import { loadStudyFile, type Study } from '../../orchestrator/study/study-file.js';
import { withdrawParticipant } from '../../orchestrator/study/withdraw.js';
import { PID } from '../../orchestrator/study/participants.js';
import { terminalSafe } from '../../text/terminal.js';
import type { FlagSpecs } from '../args.js';
import { ALLOW_ORIGIN_FLAG, allowOrigins } from '../allow-origin.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { buildRunConfig } from '../plan/run-config.js';
import { exitWithLauncher, interruptSignal } from './run.js';

const FLAGS: FlagSpecs = {
  out: { type: 'string', metavar: 'DIR', describe: "the study directory: a run directory (run.json, episodes.jsonl, ledgers) plus the study's files" },
  port: { type: 'number', describe: 'port to listen on (0: any free port; default 0)' },
  host: { type: 'string', metavar: 'ADDR', describe: 'address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)' },
  'allow-origin': ALLOW_ORIGIN_FLAG,
  'trust-proxy': { type: 'boolean', describe: "behind a TLS reverse proxy: rate limits count the client address the proxy appends to X-Forwarded-For; connections are capped in all, not per address" },
  withdraw: { type: 'string', metavar: 'PID', describe: "remove a participant's consent record, answers and survey; their episodes stay as text-free stubs (the server must be stopped)" },
};

/** `parley study`'s command line. */
export const spec: CommandSpec = {
  name: 'study',
  usage: 'parley study STUDY.yaml --out DIR [--port N] | parley study STUDY.yaml --out DIR --withdraw PID',
  summary: `A study with recruited participants (docs/study.md): prints \`study url http://HOST:PORT/\` (participants
add their id parameter, e.g. ?PROLIFIC_PID=…) and \`organiser url …/organiser#key=…\`. Participants
consent, wait to be paired (the partner policy takes the seat after waitSeconds alone), play, answer
the exit survey and get the completion code. Records, participants and CSV exports go to DIR;
stop with Ctrl-C and rerun to resume. --withdraw PID removes that participant's data.`,
  flags: FLAGS,
  positionals: { min: 1, max: 1, names: 'a study file STUDY.yaml' },
};

/** `parley study STUDY.yaml --out DIR`. */
export const run = commandRun(spec, async (args) => {
  const out = args.flags.out as string | undefined;
  if (!out) throw new UsageError('--out DIR is required (the study directory)');
  const loaded = loadStudyFile(args.positionals[0]!);
  if (!loaded.ok) throw new UsageError(loaded.message);
  const study = loaded.study;
  const port = (args.flags.port as number | undefined) ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer in 0..65535, got ${port}`);
  const flags = { scenarios: study.scenarios, ...(study.subset ? { subset: study.subset } : {}), modes: study.modes, out, 'max-turns': study.maxTurns };
  const built = buildRunConfig(flags, { agents: [{ spec: 'human' }, { spec: 'human' }] });
  if (!built.ok) throw new UsageError(`${study.file}: ${built.message}`);
  if (typeof args.flags.withdraw === 'string') return withdraw(out, study, args.flags.withdraw);
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    const result = await runStudy(built.config, study, {
      port,
      host: (args.flags.host as string | undefined) ?? '127.0.0.1',
      allowOrigins: allowOrigins(args.flags),
      trustProxy: args.flags['trust-proxy'] === true,
      log,
      signal: interrupt.signal,
      onListening: (studyUrl, organiserUrl) => {
        log(`study url ${studyUrl} (participants add ?${study.participantParam}=<their id>)`);
        log(`organiser url ${organiserUrl}`);
      },
    });
    log(`study stopped: ${result.records.length} episode(s) recorded in ${result.dir}`);
    return 0;
  } finally {
    unwatch();
    interrupt.dispose();
  }
});

async function withdraw(out: string, study: Study, pid: string): Promise<number> {
  if (!PID.safeParse(pid).success) throw new UsageError('--withdraw: not a participant id (1-64 letters, digits, _ or -)');
  const paths = new RunPaths(resolve(out));
  if (!existsSync(paths.runJson)) {
    console.error(terminalSafe(`parley study: --withdraw: ${paths.dir} is not a study directory (no run.json)`));
    return 1;
  }
  let lock;
  try {
    lock = await acquireRunLock(paths, { command: 'study', waitMs: 0 });
  } catch (err) {
    console.error(terminalSafe(`parley study: ${(err as Error).message}`));
    return 1;
  }
  try {
    const r = withdrawParticipant(lock, study, pid);
    if (!r.ok) {
      console.error(terminalSafe(`parley study: --withdraw: ${r.message}`));
      return 1;
    }
    console.log(`withdrawn: participant ${r.participant}; ${r.episodes.length} episode(s) kept as text-free stubs; logged in ${paths.dir}/study-withdrawals.jsonl`);
    return 0;
  } finally {
    lock.release();
  }
}
