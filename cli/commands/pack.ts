import { statSync } from 'node:fs';
import path from 'node:path';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { packRun } from '../../evaluator/pack/pack.js';
import { terminalSafe } from '../../text/terminal.js';

/** `parley pack`'s command line. */
export const spec: CommandSpec = {
  name: 'pack',
  usage: 'parley pack RUN --out RUN.tar.gz [--experiment FILE] [--rubric FILE]… [--scenarios FILE]',
  summary: `Packs a run for a paper's supplement: one .tar.gz holding a folder named after the run with its files
(records, ledgers, cassettes, verdicts), a fresh report.md/report.html, the simulation card (card.md), the
input files under inputs/ (the scenario file and rubric run.json names, and those given here) and
manifest.json: the SHA-256 of every file and Parley's version. Paths inside are relative, and run.json
is rewritten to name no folder of this machine. Check a pack with parley verify.`,
  flags: {
    out: { type: 'string', metavar: 'FILE', describe: 'the .tar.gz to write (required; not inside RUN)' },
    experiment: { type: 'string', metavar: 'FILE', describe: 'the experiment file the run was made with (inputs/experiment/)' },
    rubric: { type: 'string', metavar: 'FILE', multiple: true, describe: 'a rubric file the run was judged with (inputs/rubrics/); repeat for several' },
    scenarios: { type: 'string', metavar: 'FILE', describe: "the scenario file, when run.json's is not found from here (inputs/scenarios/)" },
    seed: { type: 'number', describe: "seed of the report's resampling (default 1, as parley report)" },
  },
  positionals: { min: 1, max: 1, names: 'one run directory' },
};

/** \`parley pack RUN --out FILE\`. */
export const run = commandRun(spec, async (args) => {
  const values = args.flags as { out?: string; experiment?: string; rubric?: string[]; scenarios?: string; seed?: number };
  const dir = args.positionals[0]!;
  if (!values.out) throw new UsageError('--out FILE is required (the .tar.gz to write)');
  if (!/\.(tar\.gz|tgz)$/.test(values.out)) throw new UsageError(`--out ${values.out}: name a .tar.gz file`);
  if (path.resolve(values.out).startsWith(path.resolve(dir) + path.sep)) throw new UsageError(`--out ${values.out} is inside the run directory: the pack would hold itself; write it beside the run`);
  const seed = values.seed ?? 1;
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got ${seed})`);
  const inputs = [
    ...(values.scenarios ? [{ kind: 'scenarios' as const, file: values.scenarios }] : []),
    ...(values.rubric ?? []).map((file) => ({ kind: 'rubrics' as const, file })),
    ...(values.experiment ? [{ kind: 'experiment' as const, file: values.experiment }] : []),
  ];
  const given = inputs.find((i) => !existsFile(i.file));
  if (given) throw new UsageError(`--${given.kind === 'rubrics' ? 'rubric' : given.kind} ${given.file}: no such file`);
  const result = await packRun({ dir, out: values.out, inputs, seed });
  for (const l of result.leftOut) console.error(`parley pack: left out ${terminalSafe(l)}`);
  for (const m of result.missingInputs) console.error(`parley pack: run.json names ${terminalSafe(m)}, not found from here (give it with --scenarios or --rubric)`);
  console.log(`wrote ${values.out}: ${result.files - 1} files and their manifest in ${terminalSafe(result.folder)}/, ${(result.bytes / 1024).toFixed(1)} KiB (check it with parley verify ${values.out})`);
  return 0;
});

function existsFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
