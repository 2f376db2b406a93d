import * as z from 'zod';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { craigslistScenario, partialDescription } from '../generate/craigslist.js';
import type { Scenario } from '../model.js';
import { cocoaScenarios, type CocoaImportOptions } from './cocoa-json.js';

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

/** A listings file (title, price, description) is input for the generator, not cocoa scenarios: said so, not as a schema error. */
function refuseListings(raw: unknown, where: { file: string; line: number }, index: number): void {
  const r = raw as Record<string, unknown> | null;
  if (r && typeof r === 'object' && !('uuid' in r) && 'title' in r && 'price' in r) {
    throw new ScenarioError(ScenarioErrorCode.InvalidField, 'this is a listings file (title, price), not cocoa scenarios (uuid, category, kbs): use parley scenarios make craigslist --listings FILE', { ...where, field: `${index}` });
  }
}

/**
 * Imports a cocoa CraigslistBargain scenario file into Parley scenarios (seats in `kbs` order, characters
 * from Parley's own pool). Each side keeps its own targets and bottomline; when the buyer's copy of the
 * description is the full one, the buyer gets only its first part, as in the task definition.
 */
export async function importCocoaCraigslist(file: string, opts: CocoaImportOptions = {}): Promise<Scenario[]> {
  const out: Scenario[] = [];
  for await (const { s, where, index, characters: [c1, c2] } of cocoaScenarios(file, CocoaCraigslistScenario, opts, refuseListings)) {
    const buyerIdx = s.kbs.findIndex((k) => k.personal.Role === 'buyer');
    const sellerIdx = s.kbs.findIndex((k) => k.personal.Role === 'seller');
    if (buyerIdx < 0 || sellerIdx < 0) {
      throw new ScenarioError(ScenarioErrorCode.InvalidField, 'expected one buyer and one seller', { ...where, field: `${index}.kbs.1.personal.Role` });
    }
    const buyer = s.kbs[buyerIdx]!;
    const seller = s.kbs[sellerIdx]!;
    const full = seller.item.Description.join(' ').trim();
    const buyerOwn = buyer.item.Description.join(' ').trim();
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
