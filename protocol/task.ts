import { z } from 'zod';

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

/** Task data private to a seat. Open-ended (SOTOPIA social) scenarios carry none. */
export const TaskPrivate = z.discriminatedUnion('kind', [MutualFriendsPrivate, CraigslistPrivate]);
export type TaskPrivate = z.infer<typeof TaskPrivate>;
export type MutualFriendsPrivate = z.infer<typeof MutualFriendsPrivate>;
export type CraigslistPrivate = z.infer<typeof CraigslistPrivate>;

export const TaskKind = z.enum(['mutual_friends', 'craigslist', 'open']);
export type TaskKind = z.infer<typeof TaskKind>;
