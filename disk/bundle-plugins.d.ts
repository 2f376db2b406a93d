/** Types of disk/bundle-plugins.js (plain JavaScript: bin/parley.js builds with it before any TypeScript loader). */
export declare const zodLocalesEnglishOnly: import('esbuild').Plugin;
export declare const protocolBarrelFlattened: import('esbuild').Plugin;
export declare const PROTOCOL_BARREL_FLATTENED_KEY: string;
export declare const BUNDLE_PLUGINS: readonly import('esbuild').Plugin[];
export declare function protocolBarrelReads(root: string): string[];
