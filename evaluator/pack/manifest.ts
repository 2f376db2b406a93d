import * as z from 'zod';

/** The manifest's name inside the pack's folder. */
export const MANIFEST_FILE = 'manifest.json';

/**
 * `manifest.json`: what a pack holds, so that `parley verify` can tell a changed, missing or added file.
 * Paths are relative POSIX paths inside the pack's one folder; the manifest lists every file but itself.
 */
export const Manifest = z.object({
  v: z.literal(1),
  /** The Parley version that made the pack. */
  parley: z.string(),
  run: z.string(),
  /** The pack's one top-level folder (the run directory's name). */
  folder: z.string(),
  files: z.array(z.object({ path: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().nonnegative() })),
});
export type Manifest = z.infer<typeof Manifest>;
