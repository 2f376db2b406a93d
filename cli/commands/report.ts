import { readFileSync } from 'node:fs';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import path from 'node:path';
import { MODES } from '../../protocol/index.js';
import { terminalSafe } from '../../text/terminal.js';
import { parseAnnotations } from '../../evaluator/human/annotation.js';
import { humanSummaryLines, summariseHuman, type JudgeVerdict } from '../../evaluator/human/summary.js';
import { judgeVerdictsNear, readJudgeVerdicts } from '../judge-verdicts.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { writeReport } from '../../evaluator/report/report.js';
import { filtered, filterSlug, type Filters } from '../report-filters.js';
import { reportAgainst } from './report-against.js';
import { reportPaired } from './report-paired.js';
import { reportProbes } from './report-probes.js';
import { judgePanelLines } from '../../evaluator/report/judge-panels-markdown.js';
import { compareForks, type ForkComparison } from '../../evaluator/report/forks.js';
import { forksSummaryLines, PARENT_NEEDS_EVAL } from '../../evaluator/report/forks-markdown.js';

/** `parley report`'s command line. */
export const spec: CommandSpec = {
  name: 'report',
  usage: 'parley report DIR... [--out FOLDER] [--mode M,…] [--subset NAME] [--model TEXT] [--parent RUN] [--against CORRECTED_DIR] [--paired [--by episode|scenario|seat]] [options]',
  summary: `Writes report.md, report.html (a transcript page per episode, side by side by mode) and charts/*.svg:
success, turns and words per turn by mode (with 95% bootstrap CIs), judge scores per rubric and every
judge variant, judge panels (per-judge and panel means, Krippendorff's alpha per dimension with a bootstrap
interval, printed too; self-evaluation flagged), compare verdicts, paired gaps between modes with a
permutation test, the paper's figures, and a simulation card. By default each run directory gets its
own report; --out FOLDER combines them into one.
With a filter and no --out, a run's report goes to DIR/reports/<filter>/.
parley report F --parent R: F is a fork run (parley fork); its forks' outcomes and judge scores are shown
beside the parent episode's own, per fork turn, with intervals and a chart of the effect against the fork turn.
parley report A B --paired [--by scenario] --out DIR: one report comparing run A with run B pair by pair
(same scenario, character pair, mode and repeat; or per scenario, or per seat): A − B per metric and judge
dimension with a bootstrap interval and a permutation p-value, and a chart.`,
  flags: {
    out: { type: 'string', metavar: 'FOLDER', describe: 'write one report combining every DIR into FOLDER (default: each run its own report)' },
    mode: { type: 'list', metavar: 'M1,M2', describe: 'only episodes of these modes' },
    subset: { type: 'string', metavar: 'NAME', describe: 'only scenarios tagged with this subset (e.g. hard, mutual_friends)' },
    model: { type: 'string', metavar: 'TEXT', describe: 'only episodes where a seat or the script writer is played by a model or policy containing TEXT' },
    seed: { type: 'number', describe: 'seed of the bootstrap and permutation resampling (default 1)' },
    selection: { type: 'string', metavar: 'first-valid|all', describe: "which draws count: first-valid (the first valid draw of each instance, SOTOPIA's procedure) or all (every draw, re-drawn short and unscored ones too); default: the run's protocol setting" },
    title: { type: 'string', metavar: 'TEXT', describe: 'report title' },
    human: { type: 'string', metavar: 'FILE', describe: 'add the human naturalness study of `parley annotate` (win rates, kappa) as a section' },
    paired: { type: 'boolean', describe: 'DIR... is two runs over the same scenarios: one report of their paired differences (A − B), in --out (default A/reports/paired-<B>)' },
    by: { type: 'string', metavar: 'episode|scenario|seat', describe: 'with --paired: what a pair is (default episode: same scenario, character pair, mode and repeat)' },
    probes: { type: 'string', metavar: 'FILE', describe: 'DIR is the run a `parley probe` file asked: belief accuracy against turn per mode, with intervals (probes.md and a chart per probe, in --out, default DIR/reports/probes-<FILE>)' },
    parent: { type: 'string', metavar: 'RUN', describe: 'DIR is a fork run of RUN (parley fork): compare the forks with the parent episode, per fork turn' },
    against: {
      type: 'string',
      metavar: 'DIR',
      describe:
        "the same grid run with the MutualFriends leak closed (examples/paper-corrected.yaml's run; DIR... is then one run, examples/paper.yaml's; two experiment folders are compared arm by arm): " +
        "adds how much of script and mindreaders mode's MutualFriends advantage over agents mode the leaked answer explains (goal, success, first mention; bootstrap intervals) and prints it; " +
        'written to DIR[/<arm>]/reports/against-<name> unless --out',
    },
  },
  positionals: { min: 1, max: Infinity, names: 'one or more run directories' },
};

/** The flags of the other report forms, which `--probes` does not read. */
const PROBES_IGNORES = ['mode', 'subset', 'model', 'selection', 'title', 'human', 'paired', 'by', 'parent', 'against'] as const;

/** \`parley report DIR... [--out FOLDER]\`. */
export const run = commandRun(spec, async (args) => {
  const { positionals } = args;
  const values = args.flags as { out?: string; seed?: number; title?: string; mode?: string[]; subset?: string; model?: string; human?: string; probes?: string; parent?: string; against?: string; paired?: boolean; by?: string; selection?: string };
  if (values.selection !== undefined && values.selection !== 'first-valid' && values.selection !== 'all') throw new UsageError(`--selection must be first-valid or all (got '${values.selection}')`);
  const seed = values.seed ?? 1;
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got ${seed})`);
  const bad = values.mode?.find((m) => !(MODES as readonly string[]).includes(m));
  if (bad) throw new UsageError(`--mode: unknown mode '${bad}' (choose from ${MODES.join(', ')})`);
  if (values.probes !== undefined) {
    // The probes report reads the probe file's answers only: a filter, a title or another comparison would
    // be accepted and not applied, so each is refused by name.
    const unused = PROBES_IGNORES.filter((f) => values[f] !== undefined);
    if (unused.length) throw new UsageError(`--probes reports every answer of the probe file: ${unused.map((f) => `--${f}`).join(', ')} would not apply`);
    return reportProbes(positionals, values.probes, { seed, ...(values.out ? { out: values.out } : {}) });
  }
  const filters: Filters = { ...(values.mode ? { mode: values.mode } : {}), ...(values.subset ? { subset: values.subset } : {}), ...(values.model ? { model: values.model } : {}), ...(values.selection ? { selection: values.selection as 'first-valid' | 'all' } : {}) };
  const slug = filterSlug(filters);
  if (values.out && positionals.length > 1 && positionals.some((d) => path.resolve(d) === path.resolve(values.out!))) {
    throw new UsageError(`--out ${values.out} is one of the runs: a combined report would overwrite that run's own report; name another folder`);
  }
  if (values.against !== undefined) {
    if (positionals.length !== 1) throw new UsageError('--against compares one leaky run (or experiment folder) with its corrected twin: name one');
    if (values.mode) throw new UsageError('--against compares modes with agents mode: --mode would leave some out');
    if (values.parent !== undefined) throw new UsageError('--against and --parent are two different comparisons: run report once for each');
    if (path.resolve(values.against) === path.resolve(positionals[0]!)) throw new UsageError('--against names the same run directory as the run: give the corrected run');
    if (values.out && [positionals[0]!, values.against].some((d) => path.resolve(d) === path.resolve(values.out!))) {
      throw new UsageError(`--out ${values.out} is one of the runs: the leak comparison would overwrite that run's own report; name another folder`);
    }
  }
  const load = async (dir: string) => {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) throw new Error(loaded.error.message);
    return filtered(loaded.run, filters);
  };
  const human = values.human ? humanStudy(values.human) : undefined;
  if (values.by !== undefined && !values.paired) throw new UsageError('--by is for --paired (what a pair of the two runs is)');
  if (values.paired) return reportPaired(positionals, { ...values, seed, filters, load });
  if (values.against !== undefined) return reportAgainst(positionals[0]!, values.against, { load, slug, seed, ...(values.out ? { out: values.out } : {}), ...(values.title ? { title: values.title } : {}), ...(human ? { human } : {}) });
  const runs: RunDir[] = [];
  for (const dir of positionals) runs.push(await load(dir));
  if (runs.every((r) => r.episodes.length === 0)) throw new Error(`no episode matches ${slug || 'these runs'}`);
  const title = values.title ?? (slug ? `Parley report: ${runs.map((r) => path.basename(path.resolve(r.dir))).join(', ')} (${slug})` : undefined);
  let forks: ForkComparison | undefined;
  // A fork run's report compares it with its parent: the one given, else the one its run.json names.
  const parentDir = values.parent ?? recordedParent(runs);
  if (parentDir !== undefined) {
    if (runs.length !== 1) throw new UsageError('--parent compares one fork run with its parent: give one DIR');
    const compared = await compareWithParent(runs[0]!, parentDir, seed);
    if (!compared.ok && values.parent !== undefined) throw compared.loadFailed ? new Error(`--parent ${values.parent}: ${compared.message}`) : new UsageError(compared.message);
    // The parent run.json names may be gone or moved (a pack, another machine): said, and the report goes on without it.
    if (!compared.ok) console.error(terminalSafe(`parley report: run.json names the parent run ${parentDir}, which cannot be compared here (${compared.message}); give --parent DIR to compare the forks with it`));
    else {
      forks = compared.comparison;
      if (forks.parentNeedsEval) console.error(terminalSafe(`parley report: ${PARENT_NEEDS_EVAL(forks.parentRun)}`));
      // Run and episode ids come from the run directories' files: printed terminal-safe.
      console.log(`forks of ${terminalSafe(forks.parentRun)}/${terminalSafe(forks.parentEpisode)} beside the parent's own continuation:`);
      for (const l of forksSummaryLines(forks)) console.log(`  ${terminalSafe(l)}`);
    }
  }
  // Each run its own report unless a combined one was asked for (a multi-run report never lands in a run).
  const jobs = values.out ? [{ runs, outDir: values.out }] : runs.map((r) => ({ runs: [r], outDir: slug ? path.join(r.dir, 'reports', slug) : r.dir }));
  for (const job of jobs) {
    const result = await writeReport(job.runs, { outDir: job.outDir, seed, ...(title ? { title } : {}), ...(human ? { human } : {}), ...(forks ? { forks } : {}) });
    console.log(`report of ${result.episodes} episodes:\n  ${result.markdownFile}\n  ${result.htmlFile}\n  ${result.chartFiles.length} charts in ${path.join(job.outDir, 'charts')}/`);
    for (const line of judgePanelLines(result.panels)) console.log(line);
  }
  return 0;
});

/** The human study's summary lines (`--human FILE`), printed as they are read. */
function humanStudy(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read --human ${file}: ${(err as Error).message}`);
  }
  const { annotations, bad } = parseAnnotations(text);
  for (const b of bad) console.error(`parley report: ${file}:${b.line}: ${b.message} (line ignored)`);
  // The LLM judge's naturalness verdicts beside the study, where `parley compare --judge` wrote them.
  const found = annotations[0] ? judgeVerdictsNear(annotations[0].runA) : undefined;
  let verdicts: JudgeVerdict[] | null = null;
  if (found) {
    try {
      verdicts = readJudgeVerdicts(found, (line) => console.error(terminalSafe(`parley report: ${line}`)));
    } catch (err) {
      console.error(`parley report: cannot read the judge verdicts ${found}: ${(err as Error).message} (humans vs judge left out)`);
    }
  }
  const lines = humanSummaryLines(summariseHuman(annotations, verdicts), 'report');
  for (const l of lines) console.log(l);
  return lines;
}

/** A fork run's parent as its run.json names it (`config.fork.parent`), when DIR is one fork run. */
function recordedParent(runs: readonly RunDir[]): string | undefined {
  if (runs.length !== 1) return undefined;
  const parent = runs[0]!.run?.config.fork?.parent;
  return typeof parent === 'string' && parent !== '' ? parent : undefined;
}

/** The forks beside their parent, or why not (`loadFailed`: the parent is not a readable run directory). */
async function compareWithParent(forkRun: RunDir, parentDir: string, seed: number): Promise<{ ok: true; comparison: ForkComparison } | { ok: false; message: string; loadFailed: boolean }> {
  const parent = await loadRunDir(parentDir);
  if (!parent.ok) return { ok: false, message: parent.error.message, loadFailed: true };
  const compared = compareForks(forkRun, parent.run, seed);
  return compared.ok ? compared : { ok: false, message: compared.message, loadFailed: false };
}
