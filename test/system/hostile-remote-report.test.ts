import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { CloseCode, CODE_PATTERN, ErrorCode, type EpisodeRecord } from '../../protocol/index.js';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite } from '../helpers/test-browser.js';
import { clickEveryLinkUnpwned, hostile, pwned, rawMarkdownIn } from '../helpers/hostile-payload.js';
import { hostileSeat, type HostilePlan, type HostileSeat } from '../helpers/hostile-seat.js';
import { parley, within } from '../helpers/processes.js';

/** The builtin MutualFriends scenario with a payload in every text field a scenario file carries. */
async function hostileScenarioFile(dir: string): Promise<string> {
  const show = parley(['scenarios', 'show', 'builtin', 'builtin-mf-01']);
  expect(await show.exited).toBe(0);
  const s = JSON.parse(show.stdout.join('\n')) as Record<string, any>;
  Object.assign(s, { id: hostile('id'), envId: hostile('env'), pairId: hostile('pair'), codename: hostile('codename'), source: hostile('source'), subsets: [hostile('subset')] });
  s.narrative = [{ text: hostile('narrative'), visibleTo: 'all' }];
  for (const [i, seat] of (s.seats as Array<Record<string, any>>).entries()) {
    Object.assign(seat.character, { name: hostile(`name${i}`), firstName: hostile(`first${i}`), occupation: hostile(`occupation${i}`), publicInfo: hostile(`public${i}`) });
    seat.goal = hostile(`goal${i}`);
  }
  const file = join(dir, 'hostile.jsonl');
  writeFileSync(file, JSON.stringify(s) + '\n');
  return file;
}

/** `parley serve`'s episodes and seat tokens, from its printed lines. */
function seatsOf(lines: readonly string[]): Array<{ episodeId: string; mode: string; repeat: number; tokens: Map<string, string> }> {
  const episodes: ReturnType<typeof seatsOf> = [];
  for (const l of lines) {
    const e = /^episode (\S+) /.exec(l);
    const m = e && /\.(script|agents)\.r(\d+)\./.exec(e[1]!);
    if (e && m) episodes.push({ episodeId: e[1]!, mode: m[1]!, repeat: Number(m[2]), tokens: new Map() });
    const s = /^seat (\S+) token (\S+)/.exec(l);
    if (s) episodes.at(-1)!.tokens.set(s[1]!, s[2]!);
  }
  return episodes;
}

/**
 * Issue 19 contract 3, with real hostile remote agents: a real `parley serve` whose scenario file carries
 * payloads in every field, and whose seats are all taken by raw WebSocket clients that put a payload in
 * every field a remote agent controls (client name, version, policy and host; moves; meta.policy and
 * params; failure codes and messages; a script). `parley report` writes report.md, report.html and the
 * transcript pages into the run folder; Chromium opens each page, clicks every link, and sees no script
 * run, no dialog and no request outside the run folder; report.md carries no raw HTML, link, image or
 * heading from those fields.
 */
describe.skipIf(!hasChromium)('a run played by hostile remote agents, reported and opened in Chromium', () => {
  const suite = browserSuite('hostile-remote');
  const { tmp, procs } = suite;
  const seats: HostileSeat[] = [];
  suite.onTeardown(() => {
    for (const s of seats) s.agent.close();
  });

  it('records the attack, and its report runs no script and requests nothing outside the run folder', async () => {
    const out = join(tmp.path, 'run');
    const serve = parley(['serve', '--port', '0', '--scenarios', await hostileScenarioFile(tmp.path), '--modes', 'script,agents', '--repeats', '2', '--out', out]);
    procs.push(serve);
    const [, url] = await within(serve.line(/^listening (ws:\/\/\S+)/), 30_000, 'serve listens', [serve]);
    await vi.waitFor(() => expect(serve.stdout.filter((l) => l.startsWith('seat ')).length).toBe(6), { timeout: 15_000 });
    const episodes = seatsOf(serve.stdout);
    expect(episodes.map((e) => `${e.mode}${e.repeat}`).sort()).toEqual(['agents0', 'agents1', 'script0', 'script1']);
    // agents r0 ends on a reported failure, agents r1 on a leave; script r0 is written, script r1 fails.
    const plans: Record<string, Record<string, HostilePlan>> = {
      agents0: { agent1: { kind: 'moves', moves: ['speak', 'fail'] }, agent2: { kind: 'moves', moves: ['gesture'] } },
      agents1: { agent1: { kind: 'moves', moves: ['speak'] }, agent2: { kind: 'moves', moves: ['leave'] } },
      script0: { script: { kind: 'script' } },
      script1: { script: { kind: 'script-fail' } },
    };
    for (const e of episodes) {
      for (const [seat, token] of e.tokens) seats.push(await within(hostileSeat(url!, token, `${e.mode}${e.repeat}-${seat}`, plans[`${e.mode}${e.repeat}`]![seat]!), 15_000, `${e.episodeId}/${seat} is welcomed`, [serve]));
    }
    expect(await within(serve.exited, 90_000, 'serve exits', procs)).toBe(0);
    // The edge refused what its grammars forbid (a model name and failure codes with markup and newlines):
    // bad frames, never a crash; everything else was recorded as the agents sent it.
    for (const s of seats) {
      // A client describing itself with line breaks is refused before it holds the seat.
      expect(s.firstJoin).toEqual({ close: CloseCode.JoinRefused, errors: [ErrorCode.BadFrame] });
      // Line breaks in meta, markup in a model name or a failure code: one bad frame each.
      expect(s.refusals().length).toBeGreaterThan(0);
      for (const code of s.refusals()) expect(code).toBe(ErrorCode.BadFrame);
    }
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as EpisodeRecord);
    expect(records).toHaveLength(4);
    // Each episode ran its course: the refused frames cost the attackers a strike each, not the episode.
    expect(Object.fromEntries(records.map((r) => [`${r.mode}${r.repeat}`, r.status]))).toEqual({ script0: 'ok', script1: 'failed', agents0: 'failed', agents1: 'ok' });
    const recorded = JSON.stringify(records);
    for (const field of ['client-policy-agents0-agent1', 'pk [x](javascript:', 'name-agents0-agent2', 'param-agents1-agent1-t0', 'fail-agents0-agent1', 'script-script0-script-0', 'script-fail-script1-script', 'speak-agents1-agent1-t0']) expect(recorded).toContain(field);
    // No code-shaped field of a record carries markup or a line break.
    for (const r of records) {
      for (const c of [...r.errors.map((e) => e.code), ...r.turns.flatMap((t) => (t.error ? [t.error.code] : []))]) expect(c).toMatch(CODE_PATTERN);
      expect(r.termination.detail ?? '').not.toMatch(/[\n<>[\]]/);
      for (const s of r.seats) expect(`${s.policy} ${s.client?.name ?? ''} ${s.client?.version ?? ''} ${Object.keys(s.params ?? {}).join(' ')}`).not.toMatch(/[\n\r]/);
    }

    const report = parley(['report', out]);
    procs.push(report);
    expect(await within(report.exited, 60_000, 'report exits', procs), report.stderr.join('\n')).toBe(0);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('evil.example');
    // What the agents reported is in it (as text): their policy and sampling parameters, on the simulation card.
    for (const mark of ['client-policy-agents0-agent1', 'param-agents1-agent1-t0', 'pk \\[x\\]']) expect(md).toContain(mark);
    expect(rawMarkdownIn(md)).toBeNull();

    const folder = pathToFileURL(out).href;
    const pages = ['report.html', ...readdirSync(join(out, 'transcripts')).map((f) => `transcripts/${f}`)];
    expect(pages).toHaveLength(5);
    const outside: string[] = [];
    const dialogs: string[] = [];
    let clicked = 0;
    // One context and page for all the pages (each goto is a fresh document): a context of its own per page
    // cost Chromium ~0.8 s of CPU each on the project's machines, and the pages keep no state between them.
    const context = await suite.browser.newContext();
    await context.route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith(`${folder}/`)) return route.continue();
      outside.push(u);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(`${folder}/`)) outside.push(r.url());
    });
    for (const file of pages) {
      const href = `${folder}/${file}`;
      await page.goto(href);
      expect(await page.evaluate(pwned)).toBeNull();
      expect(await page.locator('img').count()).toBe(0);
      // The payloads are on the page as text, not dropped.
      expect(await page.locator('body').innerText()).toContain('evil.example');
      clicked += await clickEveryLinkUnpwned(page, href, file);
    }
    await context.close();
    expect(clicked).toBeGreaterThanOrEqual(pages.length);
    expect(dialogs).toEqual([]);
    expect(outside).toEqual([]);
  }, 240_000);
});
