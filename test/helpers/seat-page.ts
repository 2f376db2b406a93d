import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** The seat page's Send button while it is enabled: the seat's turn. */
const sendEnabled = (page: Page): Locator => page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled'));

/** Resolves when the seat page's Send button is enabled: the seat's turn. */
export const myTurn = (page: Page, timeout = 60_000) => sendEnabled(page).waitFor({ timeout });

/**
 * Waits for the seat's turn or for `end` (the episode's end screen), whichever comes first, and says which.
 * One waiter for both (Locator.or): racing two waiters left the loser polling the page (Playwright cannot
 * cancel a wait) until its timeout, a minute into the next test on a page the tests share, where a pending
 * "my turn, then select" could act on another episode.
 */
export async function turnOrEnd(page: Page, end: Locator, timeout = 60_000): Promise<'turn' | 'end'> {
  await sendEnabled(page).or(end).first().waitFor({ timeout });
  return (await end.isVisible()) ? 'end' : 'turn';
}

/** The shared friend of a MutualFriends run's first scenario, from its scenario file (the test's oracle; the page never has it). */
export function sharedFriend(out: string): string {
  const s = JSON.parse(readFileSync(join(out, 'scenarios.jsonl'), 'utf8').split('\n')[0]!);
  const [a, b] = s.seats.map((seat: { task: { friends: Array<{ Name: string }> } }) => new Set(seat.task.friends.map((f) => f.Name)));
  return [...a].find((n) => b.has(n)) as string;
}

/** Whether an element's whole box lies inside the viewport (what a person sees without scrolling the page). */
export async function inViewport(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const vp = page.viewportSize()!;
  return box !== null && box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5;
}

/** The page's own scroll and size, and which element has the keyboard (the tests' DOM library is not loaded: an expression). */
export interface PageMetrics { scrollY: number; scrollHeight: number; scrollWidth: number; innerHeight: number; innerWidth: number; activeId: string }
export const pageMetrics = (page: Page): Promise<PageMetrics> =>
  page.evaluate('({ scrollY: window.scrollY, scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth, innerHeight: window.innerHeight, innerWidth: window.innerWidth, activeId: document.activeElement ? document.activeElement.id : "" })') as Promise<PageMetrics>;
