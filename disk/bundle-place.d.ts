/** Types of disk/bundle-place.js (plain JavaScript, as the bundle cache). */
export declare const BUILT_FROM: string;
export declare function place(staging: string, target: string, builtFrom: string, main: string, aside: string): void;
