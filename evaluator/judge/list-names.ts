/** Names as a sentence lists them: "A and B" (SOTOPIA's pairs, unchanged), "A, B and C" for a group. */
export function listNames(names: readonly string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
