import { z } from 'zod';

/**
 * A character profile as it travels in frames. Every field is optional because what a seat may see
 * of a partner depends on their relationship (SOTOPIA: a stranger sees nothing, an acquaintance sees
 * name/age/gender/occupation/pronouns/public info, a friend all but the secret). A seat's own profile
 * arrives complete, secret included.
 */
export const ProfileView = z.object({
  name: z.string().optional(),
  age: z.number().optional(),
  occupation: z.string().optional(),
  gender: z.string().optional(),
  pronouns: z.string().optional(),
  publicInfo: z.string().optional(),
  bigFive: z.string().optional(),
  moralValues: z.array(z.string()).optional(),
  schwartzValues: z.array(z.string()).optional(),
  personality: z.string().optional(),
  decisionStyle: z.string().optional(),
  mbti: z.string().optional(),
  secret: z.string().optional(),
});
export type ProfileView = z.infer<typeof ProfileView>;

/** Private goal hints, SOTOPIA's `<extra_info>`, `<strategy_hint>`, `<clarification_hint>`: owner only. */
export const HintKind = z.enum(['extra_info', 'strategy_hint', 'clarification_hint']);
export const Hint = z.object({ kind: HintKind, text: z.string() });
export type Hint = z.infer<typeof Hint>;

/** Relationship levels, SOTOPIA's codes 0..5. */
export const RELATIONSHIP_NAMES = ['stranger', 'know_by_name', 'acquaintance', 'friend', 'romantic', 'family'] as const;
export const RelationshipLevel = z.number().int().min(0).max(5);
export type RelationshipLevel = z.infer<typeof RelationshipLevel>;
