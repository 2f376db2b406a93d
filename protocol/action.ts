import { z } from 'zod';

/** SOTOPIA's action types, spelled as SOTOPIA spells them. */
export const ACTION_TYPES = ['none', 'speak', 'non-verbal communication', 'action', 'leave'] as const;
export const ActionType = z.enum(ACTION_TYPES);
export type ActionType = z.infer<typeof ActionType>;

/**
 * One move of a seat in a turn. `argument` is the utterance, gesture or physical action ('' for none/leave).
 * 8,000 characters: about 2,000 tokens, twice the longest reply SOTOPIA let a model write (1,024 tokens);
 * an edge limit on one move from another process.
 */
export const Action = z.object({
  type: ActionType,
  argument: z.string().max(8000),
});
export type Action = z.infer<typeof Action>;
