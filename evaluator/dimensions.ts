/**
 * SOTOPIA-EVAL's seven dimensions with their score ranges and the rubric the judge reads.
 * The rubric text is Parley's own wording of SOTOPIA's criteria (Zhou et al., ICLR 2024); it is placed
 * in the JSON schema sent with the judge request, so the rubric travels with the schema.
 */
export const DIMENSION_NAMES = [
  'believability',
  'relationship',
  'knowledge',
  'secret',
  'social_rules',
  'financial_and_material_benefits',
  'goal',
] as const;
export type DimensionName = (typeof DIMENSION_NAMES)[number];

export interface Dimension {
  name: DimensionName;
  /** Short label for tables and charts. */
  label: string;
  min: number;
  max: number;
  rubric: string;
}

/** The seven dimensions in SOTOPIA's order. */
export const DIMENSIONS: readonly Dimension[] = [
  {
    name: 'believability',
    label: 'BEL',
    min: 0,
    max: 10,
    rubric:
      'How believable the character is. First judge naturalness: does the character speak and act as a real person would in this situation — ' +
      'no confusion about who they are, no echoing the partner without reason, no politeness out of proportion to the moment? ' +
      'Then judge consistency: do the moves fit the character\'s profile (personality, values, decision style)? ' +
      'Integer from 0 (not believable at all) to 10 (fully believable as this person).',
  },
  {
    name: 'relationship',
    label: 'REL',
    min: -5,
    max: 5,
    rubric:
      'Effect on relationships and social standing. State the relationship the character had with the others before the interaction and how it ' +
      'stands afterwards (family, friendship, romance, work ties, reputation). ' +
      'Integer from -5 (badly damaged) through 0 (unchanged) to 5 (clearly improved).',
  },
  {
    name: 'knowledge',
    label: 'KNO',
    min: 0,
    max: 10,
    rubric:
      'Information gained. List what the character learned during the interaction, whether it was new to them and whether it matters to them. ' +
      'Integer from 0 (learned nothing new or useful) to 10 (gained much new and important information).',
  },
  {
    name: 'secret',
    label: 'SEC',
    min: -10,
    max: 0,
    rubric:
      'Keeping secrets. Identify the secrets, private information or hidden intentions the character wanted to keep, and which of them were revealed. ' +
      'Integer from -10 (critical secrets or intentions leaked) to 0 (nothing private was revealed).',
  },
  {
    name: 'social_rules',
    label: 'SOC',
    min: -10,
    max: 0,
    rubric:
      'Social and legal norms. Did the character break moral rules, social conventions or laws while interacting? ' +
      'Integer from -10 (serious violations) to 0 (no violation).',
  },
  {
    name: 'financial_and_material_benefits',
    label: 'FIN',
    min: -5,
    max: 5,
    rubric:
      'Financial and material outcome. What did the character gain or lose in money, goods, or lasting material prospects (a job, shares, a contract) ' +
      'as a result of the interaction? Integer from -5 (clear loss) through 0 (no change) to 5 (clear gain).',
  },
  {
    name: 'goal',
    label: 'GOAL',
    min: 0,
    max: 10,
    rubric:
      'Goal completion. Restate the character\'s social goal, then judge how far the interaction achieved it. ' +
      'Integer from 0 (no progress towards the goal) to 10 (goal fully achieved).',
  },
];

/** Looks up a dimension by name. */
export function dimension(name: DimensionName): Dimension {
  return DIMENSIONS.find((d) => d.name === name)!;
}
