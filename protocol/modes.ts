import * as z from 'zod';

/** The three simulation modes of Zhou et al. (2024). */
export const MODES = ['script', 'agents', 'mindreaders'] as const;
export const Mode = z.enum(MODES);
export type Mode = z.infer<typeof Mode>;
