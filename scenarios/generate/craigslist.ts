import type { CraigslistPrivate } from '../../protocol/index.js';
import { formatPrice } from '../../protocol/index.js';
import { BUILTIN_CHARACTERS } from '../characters.js';
import { builtinListings, type Listing } from '../listings.js';
import { Scenario, type Character, type ScenarioSeat } from '../model.js';
import { createRng } from '../rng.js';
import { generatedIdentity } from './identity.js';

/** Buyer target as a fraction of the listing price (CraigslistBargain, He et al. 2018). */
export const BUYER_TARGET_RATIOS = [0.5, 0.7, 0.9] as const;

/** Options for the Craigslist generator. */
export interface CraigslistOptions {
  seed: number;
  count: number;
  listings?: readonly Listing[];
  characters?: readonly Character[];
  idPrefix?: string;
  source?: string;
  subsets?: string[];
  /**
   * `cocoa` (default): the buyer sees only part of the description. `sotopia`: like SOTOPIA's
   * craigslist_bargains scenarios, the listing and its whole description are in the public scenario text.
   */
  style?: 'cocoa' | 'sotopia';
}

/**
 * Generates Craigslist negotiations from listings: seller target = listing price, buyer target =
 * 0.5/0.7/0.9 × listing price, the buyer sees part of the description. Deterministic for a seed.
 */
export function generateCraigslist(opts: CraigslistOptions): Scenario[] {
  const rng = createRng(opts.seed);
  const listings = opts.listings ?? builtinListings();
  if (listings.length === 0) throw new Error('no listings to generate from');
  const characters = opts.characters ?? BUILTIN_CHARACTERS;
  const prefix = opts.idPrefix ?? 'cl';
  // Walk through the listings in a shuffled order; repeat it only when more scenarios than listings are asked for.
  let order: Listing[] = [];
  const out: Scenario[] = [];
  for (let i = 0; i < opts.count; i++) {
    if (order.length === 0) order = rng.shuffle(listings);
    const listing = order.shift()!;
    const ratio = rng.pick(BUYER_TARGET_RATIOS);
    const buyerTarget = Math.max(1, Math.round(listing.price * ratio));
    const [c1, c2] = rng.sample(characters, 2) as [Character, Character];
    const id = `${prefix}-${String(i + 1).padStart(2, '0')}`;
    out.push(craigslistScenario({
      id, listing, buyerTarget, sellerTarget: listing.price, buyer: c1, seller: c2,
      source: opts.source ?? 'builtin', subsets: opts.subsets ?? ['craigslist_bargains'],
      style: opts.style ?? 'cocoa', codename: `craigslist_bargains_${String(i + 1).padStart(2, '0')}`,
    }));
  }
  return out;
}

/** Everything needed to build one Craigslist scenario (shared by the generator and the cocoa importer). */
export interface CraigslistParts {
  id: string;
  listing: Listing;
  buyerTarget: number;
  sellerTarget: number;
  buyerBottomline?: number | null;
  sellerBottomline?: number | null;
  buyer: Character;
  seller: Character;
  source: string;
  subsets: string[];
  style: 'cocoa' | 'sotopia';
  codename?: string;
  /** What the buyer knows of the description; by default part of it (cocoa style) or all of it (sotopia style). */
  buyerDescription?: string;
  /** Which seat buys; the buyer speaks first by default. */
  buyerFirst?: boolean;
}

/** Builds one Craigslist scenario. The buyer's seat holds only part of the description (cocoa style). */
export function craigslistScenario(p: CraigslistParts): Scenario {
  const full = p.listing.description.join(' ').trim();
  const buyerDescription = p.buyerDescription ?? (p.style === 'sotopia' ? full : partialDescription(p.listing.description));
  const item = (description: string): CraigslistPrivate['item'] => ({
    title: p.listing.title, category: p.listing.category, listingPrice: p.listing.price, description,
  });
  const buyerSeat = (seat: string): ScenarioSeat => ({
    seat,
    character: p.buyer,
    goal:
      `You are ${p.buyer.name}, the buyer of the item "${p.listing.title}". Your target price is ` +
      `$${formatPrice(p.buyerTarget)}: paying much more than that means a penalty, paying less earns a bonus.`,
    hints: [],
    secret: p.buyer.secret,
    task: { kind: 'craigslist', role: 'buyer', target: p.buyerTarget, bottomline: p.buyerBottomline ?? null, item: item(buyerDescription) },
    shares: [],
  });
  const sellerSeat = (seat: string): ScenarioSeat => ({
    seat,
    character: p.seller,
    goal:
      `You are ${p.seller.name}, the seller of the item "${p.listing.title}", listed at $${formatPrice(p.listing.price)}. ` +
      `Your target price is $${formatPrice(p.sellerTarget)}: selling for much less than that means a penalty, ` +
      `selling for more earns a bonus.`,
    hints: [],
    secret: p.seller.secret,
    task: { kind: 'craigslist', role: 'seller', target: p.sellerTarget, bottomline: p.sellerBottomline ?? null, item: item(full) },
    shares: [],
  });
  const seats = p.buyerFirst === false ? [sellerSeat('agent1'), buyerSeat('agent2')] : [buyerSeat('agent1'), sellerSeat('agent2')];
  const price = formatPrice(p.listing.price);
  const narrative =
    p.style === 'sotopia'
      ? `One person is selling ${p.listing.title} for $${price}, while another person wants to buy it. ` +
        `Here is what the seller says about the item: "${full}"`
      : `One person is selling ${withArticle(p.listing.title)} (${p.listing.category}), listed at $${price}, ` +
        `and another person is interested in buying it. They meet to negotiate the price.`;
  return Scenario.parse({
    ...generatedIdentity(p),
    kind: 'craigslist',
    narrative: [{ text: narrative, visibleTo: 'all' }],
    judgeOnly: `Seller's target price: $${formatPrice(p.sellerTarget)}. Buyer's target price: $${formatPrice(p.buyerTarget)}.`,
    relationship: { level: 0 },
    seats,
    truth: { kind: 'craigslist', title: p.listing.title, category: p.listing.category, listingPrice: p.listing.price, description: full },
  });
}

/**
 * The part of a description the buyer sees: the first half of its sentences (at least one), or the
 * first half of the words when it is a single sentence.
 */
export function partialDescription(description: readonly string[]): string {
  const sentences = description
    .join(' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (sentences.length === 0) return '';
  if (sentences.length >= 2) return sentences.slice(0, Math.max(1, Math.floor(sentences.length / 2))).join(' ');
  const words = sentences[0]!.split(/\s+/);
  if (words.length < 4) return sentences[0]!;
  return `${words.slice(0, Math.ceil(words.length / 2)).join(' ')} …`;
}

function withArticle(title: string): string {
  if (/^(a|an|the)\s/i.test(title)) return title;
  const lower = `${title.charAt(0).toLowerCase()}${title.slice(1)}`;
  return /^[aeiou]/i.test(title) ? `an ${lower}` : `a ${lower}`;
}
