import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { auditRun } from './helpers/audit.js';
import { auditGames } from './helpers/game-audit.js';
import { parley, tempDir } from './helpers/processes.js';

const readJsonl = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const ledger = (dir: string, episode: string, seat: string) => readFileSync(join(dir, 'ledgers', episode, `${seat}.jsonl`), 'utf8');

interface GameEpisode {
  episodeId: string;
  mode: string;
  status: string;
  turns: Array<{ turn: number; seat: string; phase?: string; to?: string[]; action: { type: string; argument: string } | null }>;
  game: { roles: Record<string, string>; teams: Record<string, string>; winner: string | null; how: string; inspections: Array<{ seer: string; target: string }> };
}

/** Issue 39, contract 2: the built-in werewolf game, five repeats, offline with bots, through the real CLI. */
describe('parley run --scenarios builtin --subset werewolf --repeats 5', () => {
  const tmp = tempDir('games-run');
  const out = join(tmp.path, 'W');
  let code: number | null;
  let stderr: string[];
  let stdout: string[];
  let records: GameEpisode[] = [];

  beforeAll(async () => {
    // A process: the test reads the whole run's stderr, which its agent processes share (inherited).
    const p = parley(['run', '--scenarios', 'builtin', '--subset', 'werewolf', '--repeats', '5', '--out', out]);
    code = await p.exited;
    stderr = p.stderr;
    stdout = p.stdout;
    records = readJsonl(join(out, 'episodes.jsonl'));
  });
  afterAll(() => tmp.remove());

  it('plays five games in each mode, each ending with a winning side, roles dealt anew per repeat', () => {
    expect(stderr.join('\n')).toBe('');
    expect(code).toBe(0);
    expect(records).toHaveLength(15);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(['wolves', 'village']).toContain(r.game.winner);
      expect(r.game.how).toBe('win');
      expect(Object.values(r.game.roles).sort()).toEqual(['doctor', 'seer', 'villager', 'villager', 'werewolf', 'werewolf']);
    }
    const deals = new Set(records.filter((r) => r.mode === 'agents').map((r) => JSON.stringify(r.game.roles)));
    expect(deals.size).toBeGreaterThan(1);
    expect(stdout.join('\n')).toMatch(/games won: /);
  });

  it("every werewolf team-channel message is absent from every non-werewolf's ledger", () => {
    let checked = 0;
    for (const r of records.filter((x) => x.mode !== 'script')) {
      const wolves = Object.keys(r.game.roles).filter((s) => r.game.roles[s] === 'werewolf');
      const others = Object.keys(r.game.roles).filter((s) => !wolves.includes(s));
      for (const t of r.turns.filter((x) => x.phase === 'night_talk' || x.phase === 'night_kill')) {
        expect(wolves).toContain(t.seat);
        expect(t.to!.every((s) => wolves.includes(s))).toBe(true);
        const words = JSON.stringify(t.action!.argument).slice(1, -1);
        for (const s of others) expect(ledger(out, r.episodeId, s), `${r.episodeId} ${s}`).not.toContain(words);
        // The werewolves who were still in play received it.
        for (const s of t.to!) expect(ledger(out, r.episodeId, s)).toContain(words);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("the seer's night results reach only the seer", () => {
    let results = 0;
    for (const r of records.filter((x) => x.mode !== 'script')) {
      const seer = Object.keys(r.game.roles).find((s) => r.game.roles[s] === 'seer')!;
      for (const seat of Object.keys(r.game.roles)) {
        const frames = ledger(out, r.episodeId, seat).trim().split('\n').map((l) => JSON.parse(l) as { type: string; fact?: { kind: string }; to?: string[] });
        const found = frames.filter((f) => f.type === 'game.notice' && f.fact?.kind === 'inspected');
        if (seat === seer) {
          expect(found.length).toBe(r.game.inspections.length);
          for (const f of found) expect(f.to).toEqual([seer]);
          results += found.length;
        } else {
          expect(found, `${r.episodeId} ${seat}`).toEqual([]);
        }
        // The seer's own inspect moves went to the seer alone.
        const inspects = r.turns.filter((t) => t.phase === 'night_seer');
        for (const t of inspects) if (seat !== seer) expect(frames.some((f) => f.type === 'turn.event' && (f as { turn?: number }).turn === t.turn)).toBe(false);
      }
    }
    expect(results).toBeGreaterThan(5);
  });

  it('the leak audit passes and covers team channels and night results', () => {
    const audit = auditRun(out);
    expect(audit.violations).toEqual([]);
    const games = auditGames(out);
    expect(games.checked.teamMessages).toBeGreaterThan(10);
    expect(games.checked.privateNotices).toBeGreaterThan(5);
  });

  it("parley show marks the team channel and private moves; --seat shows the seer's private notices", async () => {
    const r = records.find((x) => x.mode === 'agents')!;
    const show = await parleyInProcess(['show', out, r.episodeId]);
    expect(show.code).toBe(0);
    const text = show.stdout.join('\n');
    expect(text).toMatch(/\[private to [^\]]+\]: "Round 1, between us: let's take agent\d tonight\."/);
    expect(text).toMatch(/\[private\] \[action\] inspect agent\d/);
    const seer = Object.keys(r.game.roles).find((s) => r.game.roles[s] === 'seer')!;
    const seat = await parleyInProcess(['show', out, r.episodeId, '--seat', seer]);
    expect(seat.code).toBe(0);
    expect(seat.stdout.join('\n')).toMatch(/game\.notice +round 1 night_seer: "You looked into agent\d: they are with the (village|werewolves)\." \(to this seat only\)/);
  });

  it('the report gives win rates by role', async () => {
    const p = await parleyInProcess(['report', out]);
    expect(p.code).toBe(0);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    const section = report.slice(report.indexOf('### Win rate by role'));
    for (const role of ['Werewolf', 'Seer', 'Doctor', 'Villager']) expect(section).toMatch(new RegExp(`\\| werewolf \\| ${role} \\| \\d+/\\d+ \\d+%`));
    expect(report).toContain('### Vote accuracy');
    expect(report).toContain('### Deception success');
  });
});
