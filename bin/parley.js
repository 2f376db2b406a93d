#!/usr/bin/env node
'use strict';
// Entry for `npx parley`: runs the CLI from its cached bundle (bin/cli-bundle.mjs: built from the sources
// with esbuild, rebuilt when one changes; run with a V8 code cache, bin/cli-code-cache.js), else from the
// TypeScript sources under tsx. CommonJS (bin/package.json): a start whose bundle the stamp vouches for
// (bin/cli-start.js) loads no ES module at all; any other start takes the full check, as before.
const { loadCli, PACKAGE_ROOT, stampedBundle } = require('./cli-start.js');

async function start() {
  // Files shipped with the package (prompts, prices, web pages) are found through the root declared here
  // (disk/package-root.ts): a bundle runs from a build cache. This checkout's, whatever a parent declared.
  process.env.PARLEY_PACKAGE_ROOT = PACKAGE_ROOT;
  // The stamp only for the values that mean "on"; the switch itself (refusals too) is read below.
  const raw = process.env.PARLEY_CLI_BUNDLE?.trim();
  let mainBundle = raw === undefined || raw === '' || raw === '1' ? stampedBundle() : null;
  if (!mainBundle) {
    const { switchEnv } = await import('../disk/switch-env.js');
    /** @type {boolean} */
    let bundleOn;
    try {
      bundleOn = switchEnv('PARLEY_CLI_BUNDLE') ?? true;
    } catch (err) {
      // Refused before anything is built or run: one line and exit 2, as a refused flag (and
      // PARLEY_WORKER_BUNDLE, PARLEY_WORKER_SNAPSHOT, checked by cli/main.ts).
      process.stderr.write(`parley: ${/** @type {Error} */ (err).message}\n`);
      process.exit(2);
    }
    if (bundleOn) mainBundle = await (await import('./cli-bundle.mjs')).cliBundle();
  }

  const argv = process.argv.slice(2);
  // The light commands (show, report, …) run from a bundle of their own, ~10x smaller; the whole CLI's if it fails.
  let cli = mainBundle ? loadCli(mainBundle, argv) : undefined;
  if (!cli) {
    const { register } = await import('tsx/esm/api');
    register();
    cli = /** @type {import('./cli-start.js').CliModule} */ (await import('../cli/main.ts'));
  }
  cli.oneCommandProcess();
  process.exitCode = await cli.main(argv);
}

void start();
