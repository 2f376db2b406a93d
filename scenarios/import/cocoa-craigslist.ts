import { z } from 'zod';
import { BUILTIN_CHARACTERS } from '../characters.js';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { craigslistScenario, partialDescription } from '../generate/craigslist.js';
import type { Character, Scenario } from '../model.js';
import { createRng, deriveSeed } from '../rng.js';
import { readCocoaList } from './cocoa-json.js';
import { validate } from './read-json.js';

const Price = z.number().positive();

/** One side of a cocoa CraigslistBargain scenario (`kbs[i]`). */
export const CocoaCraigslistKb = z.object({
  personal: z.object({
    Role: z.string().transform((r) => r.toLowerCase()).pipe(z.enum(['buyer', 'seller'])),
    Target: Price,
    Bottomline: Price.nullable().optional(),
  }),
  item: z.object({
    Title: z.string().min(1),
    Category: z.string().optional(),
    Price: Price,
    Description: z.array(z.string()),
    Images: z.array(z.string()).optional(),
  }),
});

/** A cocoa CraigslistBargain scenario: `uuid`, `category`, and two `kbs`, one buyer and one seller. */
export const CocoaCraigslistScenario = z.object({
  uuid: z.string().min(1),
  category: z.string().optional(),
  kbs: z.tuple([CocoaCraigslistKb, CocoaCraigslistKb]),
});

export interface CocoaImportOptions {
  /** Seed for assigning Parley's characters (cocoa has none). */
  seed?: number;
  characters?: readonly Character[];
}

/**
 * Imports a cocoa CraigslistBargain scenario file into Parley scenarios (seats in `kbs` order, characters
 * from Parley's own pool). Each side keeps its own targets and bottomline; when the buyer's copy of the
 * description is the full one, the buyer gets only its first part, as in the task definition.
 */
export async function importCocoaCraigslist(file: string, opts: CocoaImportOptions = {}): Promise<Scenario[]> {
  const characters = opts.characters ?? BUILTIN_CHARACTERS;
  const out: Scenario[] = [];
  const ids = new Set<string>();
  for (const rec of await readCocoaList(file)) {
    const where = { file, line: rec.line };
    const raw = rec.raw as Record<string, unknown> | null;
    // A listings file (title, price, description) is input for the generator, not cocoa scenarios.
    if (raw && typeof raw === 'object' && !('uuid' in raw) && 'title' in raw && 'price' in raw) {
      throw new ScenarioError(ScenarioErrorCode.InvalidField, 'this is a listings file (title, price), not cocoa scenarios (uuid, category, kbs): use parley scenarios make craigslist --listings FILE', { ...where, field: `${rec.index}` });
    }
    const s = validate(CocoaCraigslistScenario, rec.raw, where, [rec.index]);
    if (ids.has(s.uuid)) throw new ScenarioError(ScenarioErrorCode.DuplicateId, `duplicate uuid '${s.uuid}'`, { ...where, field: `${rec.index}.uuid` });
    ids.add(s.uuid);
    const buyerIdx = s.kbs.findIndex((k) => k.personal.Role === 'buyer');
    const sellerIdx = s.kbs.findIndex((k) => k.personal.Role === 'seller');
    if (buyerIdx < 0 || sellerIdx < 0) {
      throw new ScenarioError(ScenarioErrorCode.InvalidField, 'expected one buyer and one seller', { ...where, field: `${rec.index}.kbs.1.personal.Role` });
    }
    const buyer = s.kbs[buyerIdx]!;
    const seller = s.kbs[sellerIdx]!;
    const full = seller.item.Description.join(' ').trim();
    const buyerOwn = buyer.item.Description.join(' ').trim();
    const [c1, c2] = createRng(deriveSeed(opts.seed ?? 1, s.uuid)).sample(characters, 2) as [Character, Character];
    out.push(craigslistScenario({
      id: s.uuid,
      listing: { title: seller.item.Title, category: s.category ?? seller.item.Category ?? 'other', price: seller.item.Price, description: seller.item.Description },
      buyerTarget: buyer.personal.Target,
      sellerTarget: seller.personal.Target,
      buyerBottomline: buyer.personal.Bottomline ?? null,
      sellerBottomline: seller.personal.Bottomline ?? null,
      buyer: buyerIdx === 0 ? c1 : c2,
      seller: sellerIdx === 0 ? c1 : c2,
      source: 'cocoa-craigslist',
      subsets: ['craigslist_bargains'],
      style: 'cocoa',
      buyerDescription: buyerOwn === full ? partialDescription(seller.item.Description) : buyerOwn,
      buyerFirst: buyerIdx === 0,
    }));
  }
  return out;
}
