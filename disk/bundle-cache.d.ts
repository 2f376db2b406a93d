/** Types of disk/bundle-cache.js (plain JavaScript: bin/parley.js uses it before any TypeScript loader). */
export interface BundleSpec {
  /** The package root: esbuild's working directory; the manifest's paths are relative to it. */
  root: string;
  /** This bundle's cache directory. */
  dir: string;
  /** esbuild's entry points, by output name. */
  entryPoints: Record<string, string>;
  /** The output file whose path is returned, e.g. `main.mjs`. */
  main: string;
  /** Every other esbuild option; JSON-serialisable (it is part of the cache key). */
  options: Record<string, unknown>;
  /**
   * esbuild plugins of this bundle only (after BUNDLE_PLUGINS); `key` changes whenever their output does (part of the
   * cache key); `reads`: files (from the root) a plugin's output depends on, tracked as the bundle's inputs are.
   */
  plugins?: Array<{ plugin: import('esbuild').Plugin; key: string; reads?: (root: string) => string[] }>;
}
export declare function cachedBundle(spec: BundleSpec): Promise<string>;
export declare function bundleInputs(dir: string): string[] | null;
export declare function markUsed(entry: string): void;
/** Removes what killed builds left in `dir` (`.staging-…`, `.current-…`) once it is an hour old. */
export declare function pruneStaging(dir: string): void;
export declare const KEEP_EXTERNAL: readonly string[];
export declare const NODE_BUNDLE_OPTIONS: Readonly<Record<string, unknown>>;
/** esbuild plugin: zod's `locales` namespace with English only (every bundle of this package, and the browser pages). */
export declare const zodLocalesEnglishOnly: import('esbuild').Plugin;
/** The esbuild plugins of every bundle built here. */
export declare const BUNDLE_PLUGINS: readonly import('esbuild').Plugin[];
export declare function inputsOf(dir: string, entry: string): Array<[string, number, number, string]> | null;
export declare function keySources(): string[];
export declare function dependencyManifest(root: string, rel: string): string | null;
