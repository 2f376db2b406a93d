/**
 * SOTOPIA stores a character's gender as a noun (`Man`, `Woman`, `Nonbinary`) and renders it as an
 * adjective in every prompt (`a 24-year-old male environmental activist`): its `_map_gender_to_adj`.
 * The one mapping for every paper renderer (a seat's prompt and the judge's view); a value outside it is
 * shown lower-cased, as written.
 */
const ADJECTIVE: Record<string, string> = { man: 'male', woman: 'female', nonbinary: 'nonbinary' };

export function genderAdjective(gender: string): string {
  const g = gender.trim().toLowerCase();
  return ADJECTIVE[g] ?? g;
}
