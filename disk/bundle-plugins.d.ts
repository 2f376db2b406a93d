/** Types of disk/bundle-plugins.js (plain JavaScript: bin/parley.js builds with it before any TypeScript loader). */
export declare const zodLocalesEnglishOnly: import('esbuild').Plugin;
export declare const FLATTENED_BARRELS: readonly string[];
export declare function barrelsFlattened(dirs: readonly string[]): import('esbuild').Plugin;
export declare const FLATTENED_BARRELS_PLUGIN: { readonly plugin: import('esbuild').Plugin; readonly key: string; readonly reads: (root: string) => string[] };
export declare const BUNDLE_PLUGINS: readonly import('esbuild').Plugin[];
export declare function flattenedBarrelReads(root: string): string[];
