/** Types of disk/cli-deferred-builtins.js (plain JavaScript: bin/cli-bundle.mjs builds with it before any TypeScript loader). */
export declare const cliDeferredBuiltins: { plugin: import('esbuild').Plugin; key: string };
