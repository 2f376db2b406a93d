import * as z from 'zod';

/** Relationship levels, SOTOPIA's codes 0..5. */
export const RELATIONSHIP_NAMES = ['stranger', 'know_by_name', 'acquaintance', 'friend', 'romantic', 'family'] as const;
export const RelationshipLevel = z.number().int().min(0).max(5);
export type RelationshipLevel = z.infer<typeof RelationshipLevel>;

/** From which relationship level a partner sees a field; `never` = the owner only. */
export type Reach = RelationshipLevel | 'never';

/**
 * Who sees one profile field, per protocol. `parley`: the partner's reach under `--protocol parley`
 * (today's rule). `paper`: whether SOTOPIA's background renderer (agent_vs_storyteller_v1,
 * `sotopia/envs/parallel.py` get_bio) shows the field at all (`rendered`), and the partner's reach under
 * `--backgrounds code` (the renderer's per-relationship rule). The other `--backgrounds` choices derive
 * from these two (see orchestrator/profile-view.ts).
 */
export interface FieldVisibility {
  parley: Reach;
  paper: { rendered: boolean; partner: Reach };
}

const field = <S extends z.ZodType>(schema: S, visibility: FieldVisibility) => ({ schema, visibility });

/**
 * THE definition of a character profile as it travels in frames: every field, its type and its
 * visibility rule. `ProfileView` is built from it and the projection (orchestrator/profile-view.ts)
 * iterates over it, so a field cannot exist without a rule (profile.test.ts checks the scenario model too).
 * A seat's own profile arrives complete under `parley` and as SOTOPIA renders it under `paper`.
 */
export const PROFILE_FIELDS = {
  // SOTOPIA always names both participants; Parley's own rule hides a stranger's name.
  name: field(z.string(), { parley: 1, paper: { rendered: true, partner: 0 } }),
  age: field(z.number(), { parley: 2, paper: { rendered: true, partner: 2 } }),
  occupation: field(z.string(), { parley: 2, paper: { rendered: true, partner: 2 } }),
  gender: field(z.string(), { parley: 2, paper: { rendered: true, partner: 2 } }),
  pronouns: field(z.string(), { parley: 2, paper: { rendered: true, partner: 2 } }),
  publicInfo: field(z.string(), { parley: 2, paper: { rendered: true, partner: 2 } }),
  // SOTOPIA's "Personality and values description" (its text already describes the decision style).
  personality: field(z.string(), { parley: 3, paper: { rendered: true, partner: 3 } }),
  // Profile attributes SOTOPIA stores but its renderer never shows.
  bigFive: field(z.string(), { parley: 3, paper: { rendered: false, partner: 'never' } }),
  moralValues: field(z.array(z.string()), { parley: 3, paper: { rendered: false, partner: 'never' } }),
  schwartzValues: field(z.array(z.string()), { parley: 3, paper: { rendered: false, partner: 'never' } }),
  decisionStyle: field(z.string(), { parley: 3, paper: { rendered: false, partner: 'never' } }),
  mbti: field(z.string(), { parley: 3, paper: { rendered: false, partner: 'never' } }),
  // Owner only, at every level, under both protocols (mindreaders get it through peer.state).
  secret: field(z.string(), { parley: 'never', paper: { rendered: true, partner: 'never' } }),
} as const;

export type ProfileField = keyof typeof PROFILE_FIELDS;
export const PROFILE_FIELD_NAMES = Object.keys(PROFILE_FIELDS) as ProfileField[];

type ProfileShape = { [K in ProfileField]: z.ZodOptional<(typeof PROFILE_FIELDS)[K]['schema']> };

/**
 * A character profile as it travels in frames. Every field is optional because what a seat may see
 * of a partner depends on the relationship and the protocol (rules in PROFILE_FIELDS).
 */
export const ProfileView = z.object(
  Object.fromEntries(PROFILE_FIELD_NAMES.map((k) => [k, PROFILE_FIELDS[k].schema.optional()])) as ProfileShape,
);
export type ProfileView = z.infer<typeof ProfileView>;

/** Whether a partner at `level` reaches a field with this rule. */
export function reaches(reach: Reach, level: RelationshipLevel): boolean {
  return reach !== 'never' && level >= reach;
}

/** Private goal hints, SOTOPIA's `<extra_info>`, `<strategy_hint>`, `<clarification_hint>`: owner only. */
export const HintKind = z.enum(['extra_info', 'strategy_hint', 'clarification_hint']);
export const Hint = z.object({
  kind: HintKind,
  text: z.string(),
  /** The source wrapped the hint in parentheses (137 of SOTOPIA's 180 goals do): the paper's renderings keep them. */
  parenthesized: z.boolean().optional(),
  /**
   * A hint with hints nested in it, the pair's whole content (24 of SOTOPIA's goals, `(<extra_info>A
   * <strategy_hint>B</strategy_hint></extra_info>)`): the outer hint opens the pair, the last nested one
   * closes it, so the paper's renderings read `(A B)` as SOTOPIA's did.
   */
  paren: z.enum(['open', 'close']).optional(),
});
export type Hint = z.infer<typeof Hint>;
