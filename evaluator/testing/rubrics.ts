/**
 * A custom rubric file's text, as a user would write one: two dimensions with ranges of their own (one of
 * them negative), none of SOTOPIA-EVAL's. The rubric tests and the `eval --rubric` tests read the same file.
 */
export const WARMTH_HONESTY_YAML = `name: warmth-honesty
dimensions:
  - name: warmth
    range: [0, 5]
    criteria: How warm and considerate the character is towards the others.
  - name: honesty
    range: [-3, 3]
    criteria: Whether the character is truthful; negative for deception.
`;
