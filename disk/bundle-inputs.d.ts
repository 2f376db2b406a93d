/** Types of disk/bundle-inputs.js (plain JavaScript, as the bundle cache). */
export declare function sha1(path: string): string;
export declare function inputEntry(root: string, rel: string): [string, number, number, string];
export declare function dependencyManifest(root: string, rel: string): string | null;
