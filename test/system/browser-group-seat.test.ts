import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { seriousViolations } from '../helpers/axe.js';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite } from '../helpers/test-browser.js';
import { parley } from '../helpers/processes.js';
import { myTurn, turnOrEnd } from '../helpers/seat-page.js';

/**
 * Issue 23, contract 4: `parley serve` of a three-seat group with two seats hosted as bots
 * (`--agent2 bot --agent3 bot`) prints a browser link for agent1 only, and a person playing that seat in
 * Chromium finishes the episode (the three-way MutualFriends) against the two bots. The tests share one
 * page (`suite.page`).
 */
describe.skipIf(!hasChromium)('a person in a group of three, in the browser', () => {
  const suite = browserSuite('browser-group');
  const { tmp, procs } = suite;
  const WHISPER = 'only you should hear about the copper kettle';

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

    const page = await suite.page();
    await page.goto(url!);
    await page.getByRole('table', { name: 'Friends' }).waitFor({ timeout: 30_000 });
    // Both partners are shown, by name (they know each other's names).
    for (const name of partnerNames) await page.getByRole('region', { name: `Your partner: ${name}` }).waitFor({ timeout: 10_000 });

    await myTurn(page);
    await page.getByRole('combobox', { name: 'Action' }).selectOption('speak');
    await page.getByRole('textbox', { name: 'Message' }).fill(`Hi both! Do you know ${friend}?`);
    await page.getByRole('button', { name: 'Send' }).click();
    const end = page.getByRole('region', { name: 'Episode over' });
    while ((await turnOrEnd(page, end)) === 'turn') await page.getByRole('button', { name: `Select ${friend}` }).click();
    await expect(end.textContent()).resolves.toMatch(/Success: you all found the shared friend/);
    expect(await serve.exited).toBe(0);
    // Only agent1 was printed: the bots' seats keep their tokens.
    expect(serve.stdout.filter((l) => l.startsWith('seat '))).toHaveLength(1);

    const record = JSON.parse(readFileSync(join(out!, 'episodes.jsonl'), 'utf8').trim().split('\n')[0]!);
    expect(record.outcome).toMatchObject({ kind: 'mutual_friends', success: true });
    expect(record.seats.map((s: { seat: string; policy: string }) => [s.seat, s.policy])).toEqual([['agent1', 'human'], ['agent2', 'bot'], ['agent3', 'bot']]);
    expect(new Set(record.turns.slice(0, 3).map((t: { seat: string }) => t.seat))).toEqual(new Set(['agent1', 'agent2', 'agent3']));
  }, 240_000);

  /**
   * Issue 39: a private message from the seat page. The `Send to` picker names each other participant (a
   * checkbox by name); the message reaches the ticked seat only, the chat marks it private, and the page
   * passes axe with the picker in it.
   */
  it('ticks one partner by name and sends: only that seat receives it, marked private; axe finds nothing serious', async () => {
    const out = join(tmp.path, 'R');
    const serve = parley(['serve', '--scenarios', 'builtin', '--subset', 'groups', '--modes', 'agents', '--limit', '1', '--agent2', 'bot', '--agent3', 'bot', '--out', out], { cwd: tmp.path });
    procs.push(serve);
    const [, url] = await serve.line(/^seat agent1 token \S+ url (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/);
    const scenario = JSON.parse(readFileSync(join(out, 'scenarios.jsonl'), 'utf8').split('\n')[0]!) as { seats: Array<{ character: { name: string } }> };
    const [, second, third] = scenario.seats.map((s) => s.character.name);

    const page = await suite.page();
    await page.goto(url!);
    await myTurn(page);
    const picker = page.getByRole('group', { name: 'Send to' });
    await picker.getByRole('checkbox', { name: second }).check();
    await expect(picker.getByRole('checkbox', { name: third }).isChecked()).resolves.toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'Message' }).fill(WHISPER);
    await page.getByRole('button', { name: 'Send' }).click();
    const mine = page.locator('#chat li', { hasText: WHISPER });
    await mine.waitFor({ timeout: 30_000 });
    await expect(mine.textContent()).resolves.toContain(`private to ${second}`);
    // The picker is cleared after sending: the next message is public unless ticked again.
    await expect(picker.getByRole('checkbox', { name: second }).isChecked()).resolves.toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    // The ledgers as the orchestrator writes them: agent2's holds it; agent3's, once it heard turn 1, does not.
    const ledger = (seat: string) => {
      const dir = join(out, 'ledgers');
      const episode = existsSync(dir) ? readdirSync(dir)[0] : undefined;
      const file = episode ? join(dir, episode, `${seat}.jsonl`) : '';
      return file && existsSync(file) ? readFileSync(file, 'utf8') : '';
    };
    await vi.waitFor(() => expect(ledger('agent3')).toMatch(/"type":"turn.event","turn":1,/), { timeout: 30_000, interval: 100 });
    expect(ledger('agent2')).toContain(WHISPER);
    expect(ledger('agent3')).not.toContain('copper kettle');
  }, 240_000);
});
