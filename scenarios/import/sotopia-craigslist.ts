import type { CraigslistPrivate } from '../../protocol/index.js';
import type { Extracted } from './sotopia-mutual-friends.js';

const MONEY = /\$\s?([0-9][0-9,]*(?:\.[0-9]+)?)/;

/** The item and listing price from SOTOPIA's Craigslist scenario text ("One person is selling X for $550.0, …"). */
export function parseListing(narrative: string): { title: string; listingPrice: number; description: string } | null {
  const m = /\b(?:selling|offering|put up(?: their| his| her)?|is selling)\s+(.+?)\s+for\s+(?:sale\s+at\s+|a\s+price\s+of\s+)?\$\s?([0-9][0-9,]*(?:\.[0-9]+)?)/i.exec(narrative);
  if (!m) return null;
  const listingPrice = Number(m[2]!.replace(/,/g, ''));
  if (!(listingPrice > 0)) return null;
  const title = m[1]!.replace(/^(a|an|the)\s+/i, '').trim();
  // The first sentence introduces the sale; the rest describes the item.
  const end = narrative.search(/(?<=[.!?])\s+(?=[A-Z"])/);
  const description = end >= 0 ? narrative.slice(end).trim() : '';
  return { title, listingPrice, description };
}

/** A seat's role and target from a SOTOPIA Craigslist goal ("You are the buyer … target price of $418.0"). */
export function parseRoleTarget(goal: string): { role: 'buyer' | 'seller'; target: number } | null {
  const role = /\bbuyer\b/i.test(goal) ? 'buyer' : /\bseller\b/i.test(goal) ? 'seller' : null;
  const money = MONEY.exec(goal);
  if (!role || !money) return null;
  const target = Number(money[1]!.replace(/,/g, ''));
  return target > 0 ? { role, target } : null;
}

const CATEGORY_WORDS: [string, RegExp][] = [
  ['phone', /\b(phone|iphone|galaxy|smartphone)\b/i],
  ['car', /\b(car|bmw|toyota|honda|sedan|truck|mileage|smog)\b/i],
  ['bike', /\b(bike|bicycle|cruiser|trike)\b/i],
  ['housing', /\b(apartment|studio|room|bedroom|house|condo)\b/i],
  ['furniture', /\b(couch|sofa|loveseat|chair|table|dresser|desk|stand|bed|ottoman)\b/i],
  ['electronics', /\b(tv|television|camera|laptop|speaker|headphones|monitor|tracker)\b/i],
];

/** SOTOPIA keeps no category; guess cocoa's from the title (falls back to the text, then 'other'). */
export function guessCategory(title: string, text: string): string {
  for (const probe of [title, text]) for (const [category, re] of CATEGORY_WORDS) if (re.test(probe)) return category;
  return 'other';
}

/** Task data of a SOTOPIA Craigslist scenario: the listing (public text) and each side's role and target. */
export function extractCraigslist(narrative: string, goals: string[]): Extracted<{ seats: CraigslistPrivate[]; title: string; category: string; listingPrice: number; description: string }> {
  const listing = parseListing(narrative);
  if (!listing) return { ok: false, field: 'scenario', detail: 'no "selling <item> for $<price>" in the scenario text' };
  const category = guessCategory(listing.title, narrative);
  const seats: CraigslistPrivate[] = [];
  for (let i = 0; i < goals.length; i++) {
    const rt = parseRoleTarget(goals[i]!);
    if (!rt) return { ok: false, field: `agent_goals.${i}`, detail: 'no buyer/seller role and $target in the goal' };
    seats.push({
      kind: 'craigslist', role: rt.role, target: rt.target, bottomline: null,
      // SOTOPIA's variant: the whole listing is in the public scenario text, so both sides know it all.
      item: { title: listing.title, category, listingPrice: listing.listingPrice, description: listing.description },
    });
  }
  const roles = new Set(seats.map((s) => s.role));
  if (!roles.has('buyer') || !roles.has('seller')) return { ok: false, field: 'agent_goals', detail: 'expected one buyer and one seller' };
  return { ok: true, value: { seats, title: listing.title, category, listingPrice: listing.listingPrice, description: listing.description } };
}
