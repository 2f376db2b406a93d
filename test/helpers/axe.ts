import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build (the pinned devDependency), read once. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The axe-core rules whose result depends on colours: all that a change of colour scheme can change on
 * Parley's pages, whose dark scheme sets colours only (web/style/base.css's `prefers-color-scheme: dark`
 * block: colour tokens and a shadow; web/seat/seat.css: one colour). A page checked in full is checked
 * again in the other scheme with these rules: the whole rule set again cost Chromium ~0.6-1 s of CPU a
 * check, these ~0.3 s, and found nothing more (every other rule reads the same DOM and layout).
 */
export const COLOUR_RULES: readonly string[] = ['color-contrast', 'link-in-text-block'];

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown; failureSummary?: string }> }

/**
 * Runs axe-core on the page as it is now and returns its serious and critical violations (the ones the
 * issue 25 contract forbids), each with where it is: every rule, or only `rules` (see COLOUR_RULES). The
 * source is evaluated through the DevTools protocol, which the pages' CSP (no inline script) does not
 * apply to, so the page's real CSP stays on; once a document (compiling it again in the same document
 * cost Chromium ~0.25 s of CPU a check).
 */
export async function seriousViolations(page: Page, rules?: readonly string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const only = rules ? `, runOnly: { type: "rule", values: ${JSON.stringify(rules)} }` : '';
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"]${only} })`)) as { violations: AxeViolation[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, ...(n.failureSummary ? { failureSummary: n.failureSummary } : {}) })) }));
}

/** The page's serious colour violations in the dark scheme (COLOUR_RULES; the page as it is, checked in full in light). */
export async function darkColourViolations(page: Page): Promise<AxeViolation[]> {
  await page.emulateMedia({ colorScheme: 'dark' });
  return seriousViolations(page, COLOUR_RULES);
}
