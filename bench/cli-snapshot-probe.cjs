'use strict';
/**
 * Probe (not product): a V8 start-up snapshot of a CLI bundle, to measure what a `parley` command would
 * cost started from one (bench/start-up.md, "Measured, not kept: a `parley` command from a V8 start-up
 * snapshot"). Builds a blob from the current CLI bundle (main.cjs or light.cjs of the bundle cache): its top
 * level evaluated, optionally some commands' modules too (`--preinit`); Node's HTTP stack deferred to its
 * first use (the builder cannot load node:http), the runtime files (SDKs, tar, ...) loaded from disk at first
 * use, as bin/cli-code-cache.js does.
 *   node bench/cli-snapshot-probe.cjs --bundle <cache>/b-<hash>/main.cjs --out /tmp/cli.blob [--preinit all|show,report]
 *   node --snapshot-blob /tmp/cli.blob x <command> …      (the `x` takes the script's place in argv)
 * Runs no check that the bundle is current: a probe of the start's cost only. Writes only --out and a file
 * beside it.
 */
const { execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');

const DEFERRED = ['http', 'https', 'tls', 'http2', 'readline', 'async_hooks'];

function arg(name) {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const bundle = resolve(arg('--bundle') ?? '');
const out = resolve(arg('--out') ?? '');
const preinit = arg('--preinit');
if (!arg('--bundle') || !arg('--out')) {
  console.error('usage: node bench/cli-snapshot-probe.cjs --bundle <main.cjs|light.cjs> --out <blob> [--preinit all|name,…]');
  process.exit(2);
}
const root = resolve(__dirname, '..') + '/';
// Node's own names of the deferred modules, read here: the builder may not load them.
const deferredKeys = Object.fromEntries(DEFERRED.flatMap((n) => [[n, Object.keys(require(n))], [`node:${n}`, Object.keys(require(n))]]));
const preinitCode =
  preinit === undefined
    ? ''
    : `for (const [n, c] of Object.entries(cli.exports.COMMANDS)) {
  if (${JSON.stringify(preinit)} !== 'all' && !${JSON.stringify(preinit.split(','))}.includes(n)) continue;
  c.load().catch((e) => console.error('not pre-initialised:', n, String(e).slice(0, 120)));
  c.summary?.();
}`;

const entry = `'use strict';
const v8 = require('node:v8');
const DEFERRED = ${JSON.stringify(deferredKeys)};
const deferred = new Map();
// In the builder: Node's built-ins, the HTTP stack as objects whose properties load it at first read.
const builderRequire = (id) => {
  const keys = DEFERRED[id];
  if (!keys) return require(id);
  let o = deferred.get(id);
  if (!o) {
    o = {};
    for (const k of keys) Object.defineProperty(o, k, { enumerable: true, get: () => realRequire(id)[k] });
    deferred.set(id, o);
  }
  return o;
};
let realRequire = builderRequire;
let runtime = (name) => { throw new Error('runtime file ' + name + ' in the builder'); };
const bundle = (function (exports, require, module, __filename, __dirname, __parleyRuntime) {${readFileSync(bundle, 'latin1')}\n});
const cli = { exports: {} };
bundle(cli.exports, (id) => realRequire(id), cli, ${JSON.stringify(bundle)}, ${JSON.stringify(dirname(bundle))}, (n) => runtime(n));
${preinitCode}
v8.startupSnapshot.setDeserializeMainFunction(() => {
  const { createRequire } = require('node:module');
  realRequire = createRequire(${JSON.stringify(bundle)});
  const loaded = new Map();
  runtime = (name) => {
    let e = loaded.get(name);
    if (!e) {
      e = realRequire(${JSON.stringify(join(root, 'bin', 'cli-code-cache.js'))}).loadWithCodeCache(${JSON.stringify(dirname(bundle))} + '/' + name + '.cjs', 'runtime', () => true);
      loaded.set(name, e);
    }
    return e;
  };
  process.env.PARLEY_PACKAGE_ROOT = ${JSON.stringify(root)};
  cli.exports.oneCommandProcess();
  void cli.exports.main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
});
`;
const entryFile = `${out}.entry.cjs`;
writeFileSync(entryFile, entry);
execFileSync(process.execPath, ['--snapshot-blob', out, '--build-snapshot', entryFile], { stdio: ['ignore', 'inherit', 'inherit'], env: { PARLEY_PACKAGE_ROOT: root } });
console.log(`built ${out}: node --snapshot-blob ${out} x <command> …`);
