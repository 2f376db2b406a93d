import { existsSync } from 'node:fs';
import { commandRun, type CommandSpec } from '../command.js';
import { verifyPack } from '../../evaluator/pack/verify.js';
import { terminalSafe } from '../../text/terminal.js';

/** `parley verify`'s command line. */
export const spec: CommandSpec = {
  name: 'verify',
  usage: 'parley verify PACK.tar.gz',
  summary: `Checks a pack made by parley pack against its manifest: every file's SHA-256 and size, no file missing,
none added. Exit 0 when all match; 1 with one line per changed, missing or added file otherwise.`,
  flags: {},
  positionals: { min: 1, max: 1, names: 'one .tar.gz made by parley pack' },
};

/** \`parley verify PACK\`. */
export const run = commandRun(spec, async (args) => {
  const file = args.positionals[0]!;
  if (!existsSync(file)) {
    console.error(`parley verify: ${file}: no such file`);
    return 1;
  }
  const result = await verifyPack(file);
  // Names inside a pack are someone else's text: printed terminal-safe.
  for (const p of result.problems) console.error(`parley verify: ${terminalSafe(p)}`);
  if (!result.ok) {
    console.error(`parley verify: ${file} does not match its manifest (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'})`);
    return 1;
  }
  const m = result.manifest!;
  console.log(`${file}: ${m.files.length} files match the manifest (run ${terminalSafe(m.run)}, packed by Parley ${terminalSafe(m.parley)})`);
  return 0;
});
