import * as z from 'zod';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { arrayElementLines, parseJsonDocument, readText, validate } from '../import/read-json.js';
import type { Listing } from '../listings.js';
import type { FriendPools } from '../pools.js';

/** cocoa's MutualFriends schema: attributes with a value type, and value pools per type. */
const CocoaFriendsSchema = z.object({
  attributes: z.array(z.object({ name: z.string().min(1), value_type: z.string().min(1) })).min(2),
  values: z.record(z.string(), z.array(z.string()).min(1)),
});

/**
 * Reads MutualFriends value pools from a cocoa-style schema file
 * (e.g. `../shared/data/cocoa/mutualfriends_friends_schema.json`). The attribute called `Name`
 * (or of value type `name`) supplies the friends' names.
 */
export async function loadFriendPools(file: string): Promise<FriendPools> {
  const schema = validate(CocoaFriendsSchema, parseJsonDocument(await readText(file), file), { file });
  const nameAttr = schema.attributes.find((a) => a.name === 'Name') ?? schema.attributes.find((a) => a.value_type === 'name');
  if (!nameAttr) throw new ScenarioError(ScenarioErrorCode.MissingField, 'no Name attribute', { file, field: 'attributes' });
  const pool = (type: string, i: number): string[] => {
    const values = schema.values[type];
    if (!values) throw new ScenarioError(ScenarioErrorCode.MissingField, `no value pool for type '${type}'`, { file, field: `values.${type}` });
    if (values.length === 0) throw new ScenarioError(ScenarioErrorCode.InvalidField, 'empty pool', { file, field: `attributes.${i}` });
    return values;
  };
  const attributes: Record<string, string[]> = {};
  schema.attributes.forEach((a, i) => {
    if (a !== nameAttr) attributes[a.name] = pool(a.value_type, i);
  });
  return { nameAttribute: nameAttr.name, names: pool(nameAttr.value_type, schema.attributes.indexOf(nameAttr)), attributes };
}

const RawListing = z.object({
  title: z.string(),
  category: z.string().default('other'),
  price: z.number(),
  description: z.union([z.array(z.string()), z.string()]),
});

/**
 * Reads Craigslist listings from a JSON list (e.g. `../shared/data/cocoa/craigslist_listings_sample.json`:
 * title, category, price, description[]). Listings without a usable price (≤ 1, a common placeholder)
 * or without any description are skipped, since they cannot make a negotiation.
 */
export async function loadListings(file: string): Promise<Listing[]> {
  const text = await readText(file);
  const json = parseJsonDocument(text, file);
  if (!Array.isArray(json)) throw new ScenarioError(ScenarioErrorCode.InvalidField, 'expected a JSON list of listings', { file, line: 1 });
  const lines = arrayElementLines(text);
  const out: Listing[] = [];
  json.forEach((raw, i) => {
    const l = validate(RawListing, raw, { file, line: lines[i] ?? 1 }, [i]);
    const description = (Array.isArray(l.description) ? l.description : [l.description]).map((s) => s.trim()).filter((s) => s !== '');
    if (l.price > 1 && description.length > 0 && l.title.trim() !== '') {
      out.push({ title: l.title.trim(), category: l.category, price: l.price, description });
    }
  });
  if (out.length === 0) throw new ScenarioError(ScenarioErrorCode.InvalidField, 'no usable listings', { file });
  return out;
}
