import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { testChromium } from '../helpers/test-browser.js';
import { parley, tempDir, type CliProcess } from '../helpers/processes.js';

/**
 * Issue 23, contract 4: `parley serve` of a three-seat group with two seats hosted as bots
 * (`--agent2 bot --agent3 bot`) prints a browser link for agent1 only, and a person playing that seat in
 * Chromium finishes the episode (the three-way MutualFriends) against the two bots.
 */
describe.skipIf(!hasChromium)('a person in a group of three, in the browser', () => {
  const tmp = tempDir('browser-group');
  const procs: CliProcess[] = [];
  let browser: Browser;
  beforeAll(async () => {
    browser = await testChromium();
  }, 60_000);
  afterAll(async () => {
    for (const p of procs) p.kill();
    await browser?.close();
    tmp.remove();
  });

  const myTurn = (page: Page) => page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });

  it('serve --subset groups --agent2 bot --agent3 bot: one link (agent1); the person finishes the episode', async () => {
    // The contract's command exactly (no --out: serve picks a fresh runs/serve-<time> under its working directory).
    const serve = parley(['serve', '--scenarios', 'builtin', '--subset', 'groups', '--modes', 'agents', '--limit', '1', '--agent2', 'bot', '--agent3', 'bot'], { cwd: tmp.path });
    procs.push(serve);
    const [, out] = await serve.line(/^listening \S+ \(run directory (\/\S+)\)/);
    expect(out!.startsWith(join(tmp.path, 'runs', 'serve-'))).toBe(true);
    const [, , url] = await serve.line(/^seat (agent1) token \S+ url (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/);

    // The test's oracle: the one friend on all three lists (the page never has it).
    const scenario = JSON.parse(readFileSync(join(out!, 'scenarios.jsonl'), 'utf8').split('\n')[0]!);
    expect(scenario.seats).toHaveLength(3);
    const lists = scenario.seats.map((s: { task: { friends: Array<{ Name: string }> } }) => new Set(s.task.friends.map((f) => f.Name))) as Set<string>[];
    const friend = [...lists[0]!].find((n) => lists.every((l) => l.has(n)))!;
    const partnerNames = scenario.seats.slice(1).map((s: { character: { name: string } }) => s.character.name) as string[];

    const page = await browser.newPage();
    await page.goto(url!);
    await page.getByRole('table', { name: 'Friends' }).waitFor({ timeout: 30_000 });
    // Both partners are shown, by name (they know each other's names).
    for (const name of partnerNames) await page.getByRole('region', { name: `Your partner: ${name}` }).waitFor({ timeout: 10_000 });

    await myTurn(page);
    await page.getByRole('combobox', { name: 'Action' }).selectOption('speak');
    await page.getByRole('textbox', { name: 'Message' }).fill(`Hi both! Do you know ${friend}?`);
    await page.getByRole('button', { name: 'Send' }).click();
    const end = page.getByRole('region', { name: 'Episode over' });
    while (!(await end.isVisible())) {
      await Promise.race([end.waitFor({ timeout: 60_000 }), myTurn(page).then(() => page.getByRole('button', { name: `Select ${friend}` }).click())]);
    }
    await expect(end.textContent()).resolves.toMatch(/Success: you all found the shared friend/);
    expect(await serve.exited).toBe(0);
    // Only agent1 was printed: the bots' seats keep their tokens.
    expect(serve.stdout.filter((l) => l.startsWith('seat '))).toHaveLength(1);

    const record = JSON.parse(readFileSync(join(out!, 'episodes.jsonl'), 'utf8').trim().split('\n')[0]!);
    expect(record.outcome).toMatchObject({ kind: 'mutual_friends', success: true });
    expect(record.seats.map((s: { seat: string; policy: string }) => [s.seat, s.policy])).toEqual([['agent1', 'human'], ['agent2', 'bot'], ['agent3', 'bot']]);
    expect(new Set(record.turns.slice(0, 3).map((t: { seat: string }) => t.seat))).toEqual(new Set(['agent1', 'agent2', 'agent3']));
    await page.close();
  }, 240_000);
});
