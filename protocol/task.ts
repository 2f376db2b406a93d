import * as z from 'zod';
import { GamePrivate } from './game.js';

/** A MutualFriends friend: attribute name → value (e.g. Name, School, Company). */
export const Friend = z.record(z.string(), z.string());
export type Friend = z.infer<typeof Friend>;

/** What one seat privately holds for a MutualFriends task: its own friend list. */
export const MutualFriendsPrivate = z.object({
  kind: z.literal('mutual_friends'),
  attributes: z.array(z.string()).min(1),
  friends: z.array(Friend).min(1),
});

/** What one seat privately holds for a CraigslistBargain task. */
export const CraigslistPrivate = z.object({
  kind: z.literal('craigslist'),
  role: z.enum(['buyer', 'seller']),
  target: z.number().positive(),
  /** Walk-away price if the data has one (cocoa's Bottomline); null when absent. */
  bottomline: z.number().positive().nullable(),
  item: z.object({
    title: z.string(),
    category: z.string(),
    listingPrice: z.number().positive(),
    /** What this seat knows of the description (the buyer may see only part of it). */
    description: z.string(),
  }),
});

/**
 * What one seat privately holds in a group auction: a seller and two or more buyers. The valuation is the
 * seat's own: a buyer's most it would pay, the seller's reserve (least it sells for). Nobody else's.
 */
export const AuctionPrivate = z.object({
  kind: z.literal('auction'),
  role: z.enum(['seller', 'buyer']),
  item: z.object({ title: z.string(), description: z.string() }),
  valuation: z.number().positive(),
});

/**
 * What one seat privately holds in a group split: a resource of `total` units shared out by a proposal
 * that a majority of the seats must back. `want` is the share the seat hopes for, `minimum` the least it
 * would vote for.
 */
export const SplitPrivate = z.object({
  kind: z.literal('split'),
  resource: z.string(),
  total: z.number().int().positive(),
  want: z.number().int().nonnegative(),
  minimum: z.number().int().nonnegative(),
});

/** Task data private to a seat. Open-ended (SOTOPIA social) scenarios carry none. */
export const TaskPrivate = z.discriminatedUnion('kind', [MutualFriendsPrivate, CraigslistPrivate, AuctionPrivate, SplitPrivate, GamePrivate]);
export type TaskPrivate = z.infer<typeof TaskPrivate>;
export type MutualFriendsPrivate = z.infer<typeof MutualFriendsPrivate>;
export type CraigslistPrivate = z.infer<typeof CraigslistPrivate>;
export type AuctionPrivate = z.infer<typeof AuctionPrivate>;
export type SplitPrivate = z.infer<typeof SplitPrivate>;

/** Task kinds; `auction` and `split` are group tasks (three or more seats); `game` a hidden-role game (simulation/games/). */
export const TaskKind = z.enum(['mutual_friends', 'craigslist', 'open', 'auction', 'split', 'game']);
export type TaskKind = z.infer<typeof TaskKind>;
