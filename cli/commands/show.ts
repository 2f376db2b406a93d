import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadRunDir, type LoadedEpisode } from '../../evaluator/run-dir.js';
import { episodeMatchProblem, matchEpisodeId, RunPaths } from '../../run-dir/index.js';
import { buildTranscript, transcriptText } from '../../evaluator/transcript/transcript.js';
import { frameText } from '../../evaluator/transcript/ledger-text.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { terminalSafe } from '../../text/terminal.js';

/** Fields `--filter` can select on, and how each reads a record. */
const FILTERS: Record<string, (e: LoadedEpisode) => string[]> = {
  mode: (e) => [e.record.mode],
  scenario: (e) => [e.record.scenarioId],
  pair: (e) => [e.record.pairId],
  repeat: (e) => [String(e.record.repeat)],
  status: (e) => [e.record.status],
  termination: (e) => [e.record.termination.reason],
  success: (e) => [String(e.record.outcome.success)],
  policy: (e) => e.record.seats.map((s) => s.policy),
  model: (e) => e.record.seats.flatMap((s) => (s.model ? [s.model] : [])),
};

/** `parley show`'s command line. */
export const spec: CommandSpec = {
  name: 'show',
  usage: 'parley show RUN [EPISODE] [--filter KEY=VALUE,…] [--seat SEAT]',
  summary:
    'Prints episodes of a run directory as transcripts: the characters and who played them, every turn with\n' +
    'its number, speaker and action type, errors in place, how the episode ended, the task outcome and the\n' +
    'judge scores. EPISODE is an episode id or part of one (every episode whose id contains it). With --seat, prints instead exactly\n' +
    "what that seat's process received, frame by frame, from its ledger (what it knew at each turn).\n" +
    `Filter keys: ${Object.keys(FILTERS).join(', ')} (e.g. --filter mode=agents,success=false).`,
  flags: {
    filter: { type: 'list', metavar: 'KEY=VALUE,…', describe: 'only episodes matching every KEY=VALUE' },
    seat: { type: 'string', metavar: 'SEAT', describe: "print the frames this seat's ledger holds (agent1, agent2, …; script for the script writer)" },
  },
  positionals: { min: 1, max: 2, names: 'RUN [EPISODE]' },
};

function applyFilters(episodes: LoadedEpisode[], filters: string[]): LoadedEpisode[] {
  let kept = episodes;
  for (const f of filters) {
    const eq = f.indexOf('=');
    const key = f.slice(0, eq);
    const read = FILTERS[key];
    if (eq <= 0 || !read) throw new UsageError(`--filter: '${f}' is not KEY=VALUE with KEY one of ${Object.keys(FILTERS).join(', ')}`);
    const value = f.slice(eq + 1);
    kept = kept.filter((e) => read(e).includes(value));
  }
  return kept;
}

/** An episode by exact id, else by a part of its id that only one episode has (the rule `fork` follows too). */
function pickEpisode(episodes: LoadedEpisode[], wanted: string): LoadedEpisode {
  const match = matchEpisodeId(episodes.map((e) => e.record.episodeId), wanted);
  if (match.ok) return episodes.find((e) => e.record.episodeId === match.id)!;
  throw new UsageError(match.matches.length ? episodeMatchProblem(wanted, match.matches, 'this run') : `no episode '${wanted}' in this run (parley show RUN lists them)`);
}

const seatWanted = (flags: Record<string, unknown>) => typeof flags.seat === 'string';

/** `parley show RUN [EPISODE] [--filter …] [--seat S]`. */
export const run = commandRun(spec, async (args) => {
  const [dir, wanted] = args.positionals as [string, string | undefined];
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const run = loaded.run;
  let episodes = applyFilters(run.episodes, (args.flags.filter as string[] | undefined) ?? []);
  if (wanted !== undefined) {
    // An exact id or a part only one episode has; a part several share (a scenario) shows them all.
    const exact = episodes.find((e) => e.record.episodeId === wanted);
    const partial = episodes.filter((e) => e.record.episodeId.includes(wanted));
    episodes = exact ? [exact] : seatWanted(args.flags) ? [pickEpisode(episodes, wanted)] : partial;
    if (!episodes.length) throw new UsageError(`no episode '${wanted}' in ${dir} (parley show ${dir} lists them)`);
  }
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  const seat = args.flags.seat as string | undefined;
  if (seat !== undefined) {
    if (episodes.length !== 1) throw new UsageError(`--seat needs one episode (${episodes.length} selected): name EPISODE`);
    const record = episodes[0]!.record;
    const file = new RunPaths(dir).ledgerFile(record.episodeId, seat);
    if (!existsSync(file)) {
      const seats = existsSync(path.dirname(file)) ? ` (ledgers: ${seatsWithLedger(path.dirname(file)).join(', ')})` : ' (no ledgers for this episode)';
      throw new Error(`no ledger for seat '${seat}' in episode ${record.episodeId}${seats}`);
    }
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    console.log(`=== ${record.episodeId} · seat ${seat} · ${lines.length} frame(s) received, in order (${file})`);
    // A fork's ledger: the frames before this line replayed the parent's first turns (no LLM call).
    const fork = record.fork;
    const live = fork?.liveFromLine?.[seat];
    lines.forEach((line, i) => {
      if (fork && i === live) console.log(`--- live from here: fork of ${terminalSafe(fork.parentRun)}/${terminalSafe(fork.parentEpisode)} at turn ${fork.at} (the frames above replayed the parent's turns before it)`);
      console.log(frameText(i + 1, line));
    });
    return 0;
  }
  if (episodes.length === 0) {
    console.log(`no episode in ${dir} matches`);
    return 1;
  }
  const blocks = episodes.map((e) => transcriptText(buildTranscript(e.record, run.scenarios.get(e.record.scenarioId))));
  console.log(blocks.join('\n\n'));
  if (episodes.length > 1) console.log(`\n${episodes.length} episode(s)`);
  return 0;
});

function seatsWithLedger(dir: string): string[] {
  // Listed only for the error message.
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => f.replace(/\.jsonl$/, ''));
}
