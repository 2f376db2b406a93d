import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { packagePath } from '../disk/package-root.js';

/** A Craigslist-style listing: what the seller offers, and the price it is listed at. */
export const Listing = z.object({
  title: z.string().min(1),
  category: z.string().min(1),
  price: z.number().positive(),
  /** Description sentences; the buyer sees only the first part. */
  description: z.array(z.string().min(1)).min(1),
});
export type Listing = z.infer<typeof Listing>;

let builtin: readonly Listing[] | undefined;

/**
 * Craigslist-style listings written for Parley, used by the built-in Craigslist and group generators
 * unless a listings file (e.g. cocoa's craigslist_listings_sample.json) is given instead. They are
 * content, not code, so they ship as a data file (scenarios/listings.json, in the format `--listings`
 * reads), found through the package root like the other shipped files; read once, on first use.
 */
export function builtinListings(): readonly Listing[] {
  builtin ??= z.array(Listing).parse(JSON.parse(readFileSync(packagePath('scenarios', 'listings.json'), 'utf8')));
  return builtin;
}
