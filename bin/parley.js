#!/usr/bin/env node
// Entry for `npx parley`: runs the CLI from its cached bundle (bin/cli-bundle.js: built from the sources
// with esbuild, rebuilt when one changes; run with a V8 code cache, bin/cli-code-cache.js), else from the
// TypeScript sources under tsx.
import { createRequire } from 'node:module';
import { switchEnv } from '../disk/switch-env.js';
import { bundleFor, cliBundle, PACKAGE_ROOT } from './cli-bundle.js';
import { loadWithCodeCache } from './cli-code-cache.js';

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

/** @typedef {{ main(argv: string[]): Promise<number>, oneCommandProcess(): void, COMMANDS: Record<string, unknown> }} CliModule */
/** @type {CliModule | undefined} */
let cli;
const argv = process.argv.slice(2);
const mainBundle = bundleOn ? await cliBundle() : null;
// The light commands (show, report, …) run from a bundle of their own, ~10x smaller; the whole CLI's if it fails.
for (const bundle of mainBundle ? [...new Set([bundleFor(mainBundle, argv[0]), mainBundle])] : []) {
  try {
    if (process.env.PARLEY_DEBUG) {
      // Node's own loader, which maps stack traces through the bundle's source map (a vm.Script's are not).
      process.setSourceMapsEnabled(true);
      cli = /** @type {CliModule} */ (createRequire(import.meta.url)(bundle));
    } else {
      // The code cache is the command's (`parley --help`, `--version`: `top`).
      const key = argv[0] && !argv[0].startsWith('-') ? argv[0] : 'top';
      const known = (/** @type {Record<string, unknown>} */ mod, /** @type {string} */ k) => k === 'top' || Object.hasOwn(/** @type {CliModule} */ (mod).COMMANDS, k);
      cli = /** @type {CliModule} */ (loadWithCodeCache(bundle, key, known));
    }
    break;
  } catch (err) {
    // A bundle removed or damaged under us: the whole CLI's, else the sources, still run.
    if (process.env.PARLEY_DEBUG) console.error(`parley: bundle ${bundle} did not load (${err}); running ${bundle === mainBundle ? 'the sources' : mainBundle}`);
  }
}
if (!cli) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = /** @type {CliModule} */ (await import('../cli/main.ts'));
}
cli.oneCommandProcess();
process.exitCode = await cli.main(argv);
