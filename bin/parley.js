#!/usr/bin/env node
// Entry for `npx parley`: runs the CLI from its cached bundle (bin/cli-bundle.js: built from the sources
// with esbuild, rebuilt when one changes), else from the TypeScript sources under tsx.
import { pathToFileURL } from 'node:url';
import { switchEnv } from '../disk/switch-env.js';
import { cliBundle, PACKAGE_ROOT } from './cli-bundle.js';

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

// Files shipped with the package (prompts, prices, web pages) are found through the root declared here
// (disk/package-root.ts): a bundle runs from a build cache. This checkout's, whatever a parent declared.
process.env.PARLEY_PACKAGE_ROOT = PACKAGE_ROOT;

/** @type {((argv: string[]) => Promise<number>) | undefined} */
let main;
const bundle = bundleOn ? await cliBundle() : null;
if (bundle) {
  if (process.env.PARLEY_DEBUG) process.setSourceMapsEnabled(true);
  try {
    ({ main } = await import(pathToFileURL(bundle).href));
  } catch (err) {
    // A bundle removed or damaged under us: the sources still run.
    if (process.env.PARLEY_DEBUG) console.error(`parley: bundle ${bundle} did not load (${err}); running the sources`);
  }
}
if (!main) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
