#!/usr/bin/env node
// Entry for `npx parley`: runs the CLI from its cached bundle (bin/cli-bundle.js: built from the sources
// with esbuild, rebuilt when one changes), else from the TypeScript sources under tsx.
import { pathToFileURL } from 'node:url';
import { cliBundle, PACKAGE_ROOT } from './cli-bundle.js';

const bundle = await cliBundle();
let main;
if (bundle) {
  // The bundle lives in a build cache: files shipped with the package are found through the root declared here.
  process.env.PARLEY_PACKAGE_ROOT ||= PACKAGE_ROOT;
  if (process.env.PARLEY_DEBUG) process.setSourceMapsEnabled(true);
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
