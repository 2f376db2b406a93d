import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite } from '../helpers/test-browser.js';
import { parley } from '../helpers/processes.js';
import { myTurn, turnOrEnd } from '../helpers/seat-page.js';

/**
 * A person plays a seat in a real browser (issue 13, contracts 1 and 2): `parley serve --agent2 bot`
 * leaves agent1 open and prints its link; headless Chromium opens it, sees the friend table and the goal,
 * and plays a whole MutualFriends episode by clicking against the bot. Then the same link and a wrong one
 * show an error, and the server stays up (a second serve episode waits meanwhile). The tests share one page
 * (`suite.page`); a second page is opened only where two are open at once.
 */
describe.skipIf(!hasChromium)('browser seat over socket.io', () => {
  const suite = browserSuite('browser');
  const { tmp, procs } = suite;

  /** The shared friend, from the run's scenario file (the test's oracle; the page never has it). */
  const sharedFriend = (out: string): string => {
    const s = JSON.parse(readFileSync(join(out, 'scenarios.jsonl'), 'utf8').split('\n')[0]!);
    const [a, b] = s.seats.map((seat: { task: { friends: Array<{ Name: string }> } }) => new Set(seat.task.friends.map((f) => f.Name)));
    return [...a].find((n) => b.has(n)) as string;
  };

  /** Serves two MutualFriends episodes of `modes` (agent2 a bot) into `out`; resolves with serve and agent1's two seat links. */
  const serveTwoHumanSeats = async (out: string, modes: string) => {
    const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--subset', 'mutual_friends', '--modes', modes, '--agent2', 'bot', '--limit', '2', '--out', out]);
    procs.push(serve);
    const links = () => serve.stdout.filter((l) => /^seat agent1 /.test(l)).map((l) => l.split(' url ')[1]!);
    await vi.waitFor(() => expect(links()).toHaveLength(2), { timeout: 60_000 });
    return { serve, links: links() as [string, string] };
  };

  it('plays a MutualFriends episode by clicking; the record and the ledger say so', async () => {
    const out = join(tmp.path, 'served');
    const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--subset', 'mutual_friends', '--modes', 'agents', '--agent2', 'bot', '--limit', '1', '--out', out]);
    procs.push(serve);
    const [line, , token, url] = await serve.line(/^seat (agent1) token (\S+) url (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/);
    expect(line).toContain(token!);
    expect(serve.stdout.filter((l) => l.startsWith('seat '))).toHaveLength(1);

    const page = await suite.page();
    await page.goto(url!);
    await page.getByRole('table', { name: 'Friends' }).waitFor({ timeout: 30_000 });
    await expect(page.locator('.goal').textContent()).resolves.toMatch(/friend/i);
    const friend = sharedFriend(out);

    // Turn 1 (agent1 speaks first): ask about the shared friend by name, by typing and pressing Send.
    await myTurn(page);
    await page.getByRole('combobox', { name: 'Action' }).selectOption('speak');
    await page.getByRole('textbox', { name: 'Message' }).fill(`Hi! Do you know ${friend}?`);
    await page.getByRole('button', { name: 'Send' }).click();
    // Next own turn: select that friend by clicking the row's button.
    await myTurn(page);
    await page.getByRole('button', { name: `Select ${friend}` }).click();
    const end = page.getByRole('region', { name: 'Episode over' });
    // The bot may still need a turn to select too; each of our remaining turns re-selects the same friend.
    while ((await turnOrEnd(page, end)) === 'turn') await page.getByRole('button', { name: `Select ${friend}` }).click();
    await expect(end.textContent()).resolves.toMatch(/Success/);
    expect(await serve.exited).toBe(0);

    const record = JSON.parse(readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n')[0]!);
    expect(record.outcome).toMatchObject({ kind: 'mutual_friends', success: true });
    const seat = record.seats.find((s: { seat: string }) => s.seat === 'agent1');
    expect(seat).toMatchObject({ policy: 'human', client: { name: 'parley-web', transport: 'socket.io' } });
    const ledger = join(out, 'ledgers', record.episodeId, 'agent1.jsonl');
    expect(existsSync(ledger)).toBe(true);
    // The ledger holds exactly the frames the page received, in order.
    const ledgered = readFileSync(ledger, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const received = (await page.evaluate(() => (globalThis as unknown as { parleyReceived: string[] }).parleyReceived)).map((r) => JSON.parse(r));
    const frameOf = (e: Record<string, unknown>) => (e.frame ?? e) as { id: string; type: string };
    expect(received.map((f) => f.id)).toEqual(ledgered.map((e) => frameOf(e).id));
  }, 240_000);

  it('rejoins on reload; a used or wrong link shows an error and the server stays up', async () => {
    const out = join(tmp.path, 'two');
    const { serve, links: [first, second] } = await serveTwoHumanSeats(out, 'agents');
    const page = await suite.page();
    await page.goto(first);
    await myTurn(page);
    // Reload mid-episode: the page rejoins the seat with its resume secret and gets its turn back.
    await page.reload();
    await page.getByRole('table', { name: 'Friends' }).waitFor({ timeout: 30_000 });
    await myTurn(page);
    await page.getByRole('combobox', { name: 'Action' }).selectOption('leave');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('region', { name: 'Episode over' }).textContent()).resolves.toMatch(/leave/);

    // The same link again, after its episode, in another tab: a clear message, no seat.
    const again = await suite.browser.newPage();
    await again.goto(first);
    await expect(again.getByRole('alert').textContent()).resolves.toMatch(/cannot be used|Could not take this seat/);
    // A wrong token: the same.
    await again.goto(second.replace(/token=\S+$/, 'token=wrongtoken123'));
    await expect(again.getByRole('alert').textContent()).resolves.toMatch(/cannot be used|Could not take this seat/);
    // The server is still up: the other episode's link opens its seat.
    await again.goto(second);
    await again.getByRole('table', { name: 'Friends' }).waitFor({ timeout: 30_000 });
    expect(serve.child.exitCode).toBeNull();
    await again.close();
    serve.kill();
  }, 240_000);

  it("agents mode never shows the partner's secret or goal; mindreaders mode shows them in the labelled panel", async () => {
    const out = join(tmp.path, 'modes');
    const { serve, links } = await serveTwoHumanSeats(out, 'agents,mindreaders');
    const scenario = JSON.parse(readFileSync(join(out, 'scenarios.jsonl'), 'utf8').split('\n')[0]!);
    const partner = scenario.seats[1] as { goal: string; secret: string; character: { name: string } };
    expect(partner.secret.length).toBeGreaterThan(10);
    const seen = new Map<string, { text: string; panel: string | null }>();
    const page = await suite.page();
    for (const link of links) {
      await page.goto(link);
      await page.getByRole('table', { name: 'Friends' }).first().waitFor({ timeout: 30_000 });
      const text = (await page.locator('body').innerText());
      const mode = /Mode: (agents|mindreaders)/.exec(text)![1]!;
      const panel = page.getByRole('region', { name: /^Mindreaders mode: .*private state$/ });
      if (mode === 'mindreaders') await panel.waitFor({ timeout: 30_000 });
      seen.set(mode, { text: await page.locator('body').innerText(), panel: (await panel.count()) ? await panel.innerText() : null });
    }
    const agents = seen.get('agents')!;
    expect(agents.text).not.toContain(partner.goal);
    expect(agents.text).not.toContain(partner.secret);
    expect(agents.panel).toBeNull();
    const minds = seen.get('mindreaders')!;
    expect(minds.panel).toContain(partner.goal);
    expect(minds.panel).toContain(partner.secret);
    serve.kill();
  }, 240_000);
});
