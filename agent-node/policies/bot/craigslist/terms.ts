import type { CraigslistPrivate } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { botRng, seedOf } from '../seed.js';

export type Role = CraigslistPrivate['role'];

/**
 * A negotiator's temperament, seeded by scenario and seat — the same in every mode and repeat, so that modes
 * are compared with the same limits (moves themselves are seeded by episode id): how far past its
 * target it will go, how far from it it opens, how fast it concedes, how long it holds at its limit.
 */
export interface NegotiatorStyle {
  /** Fraction of the target it will still accept beyond it when the data gives no bottomline. */
  tolerance: number;
  /** Opening distance from the target, as a fraction of it. */
  openMargin: number;
  /** Fraction of the gap to the partner's offer conceded each round. */
  concession: number;
  /** Offers at its limit before it walks away. */
  patience: number;
}

export function negotiatorStyle(view: SeatView): NegotiatorStyle {
  const rng = botRng(seedOf('cl-style', view.welcome.scenario.id, view.welcome.seat));
  return {
    tolerance: rng.range(0.1, 0.3),
    openMargin: rng.range(0.08, 0.2),
    concession: rng.range(0.25, 0.45),
    patience: rng.next() < 0.5 ? 2 : 3,
  };
}

/** The worst price this seat accepts: its bottomline if the data has one, else its target stretched by tolerance. */
export function limitOf(task: CraigslistPrivate, tolerance: number): number {
  if (task.bottomline !== null) return task.bottomline;
  return task.role === 'buyer' ? task.target * (1 + tolerance) : task.target * (1 - tolerance);
}

/** Whether `price` is acceptable to a seat of `role` whose limit is `limit`. */
export const withinLimit = (role: Role, price: number, limit: number): boolean =>
  role === 'buyer' ? price <= limit + 1e-9 : price >= limit - 1e-9;

/** Whether price `a` is at least as good as `b` for `role`. */
export const atLeastAsGood = (role: Role, a: number, b: number): boolean => (role === 'buyer' ? a <= b : a >= b);

/** Moves `price` no further than `limit` (a buyer never offers above it, a seller never below). */
export const clampToLimit = (role: Role, price: number, limit: number): number =>
  role === 'buyer' ? Math.min(price, limit) : Math.max(price, limit);

/**
 * Round numbers as people quote them (nearest 10 above $1000, 5 above $100, 1 below), rounded in the seat's
 * own favour, then clamped so rounding can never cross its limit.
 */
export function nicePrice(role: Role, price: number, limit: number): number {
  const step = priceStep(price);
  const rounded = role === 'buyer' ? Math.floor(price / step) * step : Math.ceil(price / step) * step;
  const clamped = clampToLimit(role, Math.max(1, rounded), limit);
  return Math.round(clamped * 100) / 100;
}

/** The rounding step for prices around `price`. */
export const priceStep = (price: number): number => (price >= 1000 ? 10 : price >= 100 ? 5 : 1);
