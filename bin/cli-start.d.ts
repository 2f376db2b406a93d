/** Types of bin/cli-start.js (plain CommonJS: every `parley` process runs it before any TypeScript loader). */
export declare const PACKAGE_ROOT: string;
export declare function cliCacheDir(): string;
export declare const LIGHT_COMMANDS: readonly string[];
export declare function bundleFor(mainFile: string, command: string | undefined): string;
export declare function stampedBundle(root?: string, dir?: string): string | null;
export declare function writeStamp(at: { root: string; dir: string; entry: string; inputs: Array<[string, number, number, ...unknown[]]>; keySources: string[] }): void;
export interface CliModule {
  main(argv: string[]): Promise<number>;
  oneCommandProcess(): void;
  COMMANDS: Record<string, unknown>;
}
export declare function loadCli(mainBundle: string, argv: string[]): CliModule | undefined;
