import * as z from 'zod';

/**
 * Raw SOTOPIA profile rows as they appear in sotopia-space `profiles/*.jsonl`. Only what Parley uses is
 * required; relationship codes are checked separately so an unknown code gets its own error.
 */
const RelationshipCode = z.union([z.string(), z.number()]);

export const SotopiaEnvironment = z.object({
  env_id: z.string().min(1),
  codename: z.string().default(''),
  source: z.string().default(''),
  scenario: z.string(),
  agent_goals: z.array(z.string()).min(2),
  relationship: RelationshipCode,
  age_constraint: z.string().nullable().optional(),
  occupation_constraint: z.string().nullable().optional(),
  agent_constraint: z.string().nullable().optional(),
});
export type SotopiaEnvironment = z.infer<typeof SotopiaEnvironment>;

export const SotopiaAgent = z.object({
  agent_id: z.string().min(1),
  first_name: z.string().min(1),
  last_name: z.string(),
  age: z.union([z.number(), z.string()]).optional(),
  occupation: z.string().optional(),
  gender: z.string().optional(),
  gender_pronoun: z.string().optional(),
  public_info: z.string().optional(),
  big_five: z.string().optional(),
  moral_values: z.array(z.string()).optional(),
  schwartz_personal_values: z.array(z.string()).optional(),
  personality_and_values: z.string().optional(),
  decision_making_style: z.string().optional(),
  secret: z.string(),
  mbti: z.string().optional(),
});
export type SotopiaAgent = z.infer<typeof SotopiaAgent>;

export const SotopiaRelationship = z.object({
  relationship_id: z.string().optional(),
  agent1_id: z.string().min(1),
  agent2_id: z.string().min(1),
  relationship: RelationshipCode,
  background_story: z.string().nullable().optional(),
});
export type SotopiaRelationship = z.infer<typeof SotopiaRelationship>;

export const SotopiaCombo = z.object({
  combo_id: z.string().min(1),
  env_id: z.string().min(1),
  agent_ids: z.array(z.string().min(1)).min(2),
});
export type SotopiaCombo = z.infer<typeof SotopiaCombo>;

/** `env_ids.json`: named id lists; Parley reads `sotopia_hard_env_id` (and keeps the others as subsets). */
export const SotopiaEnvIds = z.record(z.string(), z.array(z.string()));
export type SotopiaEnvIds = z.infer<typeof SotopiaEnvIds>;
