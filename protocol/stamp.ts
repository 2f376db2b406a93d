import type { Body } from './frames.js';
import { PROTOCOL_VERSION } from './version.js';

/** Makes frame ids for one sender: a prefix plus a counter, cheap and unique per connection. */
export function frameIds(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}${(n++).toString(36)}`;
}

/** Adds the envelope (`v`, `id`) to a frame body. */
export function stamp<F extends { v: number; id: string }>(body: Body<F>, id: string): F {
  return { v: PROTOCOL_VERSION, id, ...body } as unknown as F;
}
