/** Types of disk/cli-runtime-packages.js (plain JavaScript: bin/cli-bundle.mjs builds with it before any TypeScript loader). */
export declare const CLI_RUNTIME_PACKAGES: Readonly<Record<'mistral' | 'openai' | 'socketio' | 'rate-limiter-flexible' | 'tar' | 'yaml', readonly string[]>>;
export declare function cliRuntimeEntryPoints(): Record<string, string>;
export declare function isRuntimeEntry(entry: string): boolean;
export declare const cliRuntimePackages: { plugin: import('esbuild').Plugin; key: string };
