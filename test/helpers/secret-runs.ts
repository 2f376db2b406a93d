/**
 * The paraphrase-aware leak audit (DESIGN invariant 3): a secret leaks when a seat receives a run of
 * FOUR consecutive content words of it — stop words removed, words normalised — that the seat's own side
 * and the public scenario do not also carry. Verbatim canaries miss paraphrase ("Noah's secret identity as
 * a stand-up comedian" told back as "Noah ... secret identity, stand-up comedian"); runs of content words
 * catch it, while a lone shared word ("comedian") does not count.
 *
 * Pure functions over text, used by the isolation tests on observe() frames and on run-directory ledgers.
 */

/** Words that carry no content of their own (English function words and auxiliaries). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each even ever few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just let may me might more most must my myself no nor not now of off on once only ' +
    'or other ought our ours ourselves out over own same shall she should so some such than that the their theirs them themselves ' +
    'then there these they this those though through to too under until up upon us very was we were what when where which while who ' +
    'whom whose why will with would yet you your yours yourself yourselves s t don doesn didn isn wasn weren won wouldn couldn shouldn'
  ).split(/\s+/),
);

/** One word normalised: lower case, accents and possessive `'s` removed, a plain plural `s` dropped. */
export function normaliseWord(raw: string): string {
  let w = raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  w = w.replace(/['’]s$/, '').replace(/['’]/g, '');
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  return w;
}

/** The content words of a text, in order (stop words dropped, so "the secret of Ann" ≈ "Ann's secret"). */
export function contentWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [])
    .map(normaliseWord)
    .filter((w) => w !== '' && !STOP_WORDS.has(w));
}

/** Every run of `n` consecutive content words of a text, as keys. */
export function runsOf(text: string, n = 4): Set<string> {
  const words = contentWords(text);
  const runs = new Set<string>();
  for (let i = 0; i + n <= words.length; i++) runs.add(words.slice(i, i + n).join(' '));
  return runs;
}

/** A seat's audit input: the partner secrets to look for, and the text the seat may legitimately hold. */
export interface SecretAuditCase {
  /** Partner secrets (and goals, if wanted) the seat must not receive. */
  secrets: readonly string[];
  /** The seat's own side and the public scenario: runs found here are not leaks. */
  allowed: readonly string[];
}

/**
 * The leaked runs: runs of `n` content words of a secret that occur in one of the `received` texts and in
 * none of the allowed ones. Each received text is scanned on its own (runs never span two texts).
 */
export function leakedRuns(c: SecretAuditCase, received: readonly string[], n = 4): string[] {
  const allowed = new Set<string>();
  for (const t of c.allowed) for (const r of runsOf(t, n)) allowed.add(r);
  const wanted = new Set<string>();
  for (const s of c.secrets) for (const r of runsOf(s, n)) if (!allowed.has(r)) wanted.add(r);
  if (wanted.size === 0) return [];
  const found = new Set<string>();
  for (const t of received) for (const r of runsOf(t, n)) if (wanted.has(r)) found.add(r);
  return [...found];
}

/** Every string inside a JSON value (frame), so runs never span two fields. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

/** What a scenario seat legitimately holds, plus the public narrative: the audit's allowed texts. */
export function ownSideTexts(
  scenario: { narrative: ReadonlyArray<{ text: string; visibleTo: 'all' | readonly string[] }>; seats: ReadonlyArray<{ seat: string; goal: string; hints: ReadonlyArray<{ text: string }>; character: object; task: unknown }> },
  seat: string,
): string[] {
  const own = scenario.seats.find((s) => s.seat === seat);
  const texts = scenario.narrative.filter((s) => s.visibleTo === 'all' || s.visibleTo.includes(seat)).map((s) => s.text);
  if (own) texts.push(own.goal, ...own.hints.map((h) => h.text), ...stringsIn(own.character), ...stringsIn(own.task));
  return texts;
}
