/** Types of bin/cli-bundle.mjs (plain JavaScript: it runs before any TypeScript loader). */
export declare const PACKAGE_ROOT: string;
export declare function cliCacheDir(): string;
export declare function cliBundle(): Promise<string | null>;
export declare const LIGHT_COMMANDS: readonly string[];
export declare function bundleOf(root: string, dir: string, entries?: Readonly<Record<string, string>>): Promise<string>;
export declare function bundleFor(mainFile: string, command: string | undefined): string;
