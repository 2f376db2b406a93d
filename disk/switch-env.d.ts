/** Types of disk/switch-env.js (plain JavaScript: bin/parley.js reads a switch before any TypeScript loader). */
export declare function switchEnv(name: string, env?: NodeJS.ProcessEnv): boolean | undefined;
