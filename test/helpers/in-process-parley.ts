import { createRequire } from 'node:module';
import { bundleFor, PACKAGE_ROOT, stampedBundle, type CliModule } from '../../bin/cli-start.js';
import { runInProcess, type CliEntry, type InProcessOptions, type InProcessResult } from '../../testkit/in-process-cli.js';

/**
 * `parley <argv>` in this test process (testkit/in-process-cli.ts: env, cwd and output handled as a child's; one
 * call at a time), from what `npx parley` runs: the CLI bundle (bin/cli-bundle.mjs; test/setup/warm-bundles.ts
 * builds it before the first file), the light bundle for its commands, as bin/parley.js picks them.
 *
 * Why not cli/main.ts's sources: Vitest's module runner loads them in every worker process, each module
 * transformed by the main process and evaluated through the runner, and a command's modules only at its first
 * call. Measured (a worker, CPU ms, first call of run / report / export, then warm): sources 1,757 / 500 / 997,
 * warm 290-363 / 81-196 / 124-261; the bundle 549 / 128 / 457, warm 224-322 / 69-101 / 52-154; the load itself
 * about the same (~160-300 ms), and the main process transformed the CLI's ~500 modules once per project.
 * Nothing shares module state with the product this way: the tests that used this runner only pass argv and
 * read the output and the files a command wrote (none spies on or mocks a product module).
 *
 * A bundle is current or built now (bin/parley.js's check: the start stamp, else the full check); a source
 * change is in the next command's bundle. PARLEY_CLI_BUNDLE off in the command's environment, or no bundle,
 * and the sources run, as bin/parley.js would (under tsx there, the module runner here).
 */
export function parleyInProcess(argv: string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  return runInProcess(argv, opts, async (a) => (await cliEntry(a))(a));
}

const requireHere = createRequire(import.meta.url);

/** The entry that runs `parley <argv>` now (the command's environment is in place: runInProcess). */
async function cliEntry(argv: string[]): Promise<CliEntry> {
  // As bin/parley.js: files shipped with the package are found through the root (a bundle runs from the cache).
  process.env.PARLEY_PACKAGE_ROOT = PACKAGE_ROOT;
  const raw = process.env.PARLEY_CLI_BUNDLE?.trim();
  const on = raw === undefined || raw === '' || raw === '1';
  const main = on ? (stampedBundle() ?? (await (await import('../../bin/cli-bundle.mjs')).cliBundle())) : null;
  if (main) {
    // Node's loader (not the test runner's): loaded once per worker, as a process loads it once.
    for (const file of new Set([bundleFor(main, argv[0]), main])) {
      try {
        return (requireHere(file) as CliModule).main;
      } catch {
        // A bundle removed or damaged under us: the whole CLI's, else the sources (bin/cli-start.js's loadCli).
      }
    }
  }
  return (await import('../../cli/main.js')).main;
}
