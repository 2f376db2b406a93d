import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditGames } from './game-audit.js';
import { leakedRuns, ownSideTexts, stringsIn } from './secret-runs.js';
import { auditWhispers, type WhisperTurn } from './whisper-audit.js';

interface SeatFacts { seat: string; goal: string; secret: string; hints: Array<{ text: string }>; character: object; task: unknown }
interface ScenarioFacts { id: string; judgeOnly: string; seats: SeatFacts[]; narrative: Array<{ text: string; visibleTo: 'all' | string[] }> }
interface EpisodeFacts {
  episodeId: string;
  scenarioId: string;
  mode: 'script' | 'agents' | 'mindreaders';
  seats: Array<{ seat: string; pid: number | null; pids?: number[]; policy: string }>;
  scriptWriter?: { pid: number | null; pids?: number[] };
  /** A fork (`parley fork`): what it revealed at its fork turn, and where each ledger's live part begins. */
  fork?: { reveal?: string[]; liveFromLine?: Record<string, number> };
  /** The moves, for the private-move part (whisper-audit.ts). */
  turns?: WhisperTurn[];
  /** A hidden-role game: its channels and private moves are game-audit.ts's part. */
  game?: unknown;
}

/** The private fields of `from` a fork revealed to `to` (`agent2.goal+secret:agent1`). */
function revealedFields(ep: EpisodeFacts, from: string, to: string): Set<string> {
  const out = new Set<string>();
  for (const r of ep.fork?.reveal ?? []) {
    const m = /^([^.]+)\.([^:]+):(.+)$/.exec(r);
    if (m && m[1] === from && m[3] === to) for (const f of m[2]!.split('+')) out.add(f);
  }
  return out;
}

/** How a string appears inside a JSON line (escaped). */
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);

/**
 * The isolation audit of the episode network contract, from the run directory's files only (as an
 * outside checker would): ledgers against scenarios.jsonl, pids against run.json. Returns every
 * violation found (empty = the run is clean), plus counts showing the audit was not vacuous.
 * Agents-mode ledgers are also searched for paraphrase (secret-runs.ts): no frame the orchestrator built
 * may hold a run of four content words of the partner's secret that the seat's own side and the public
 * scenario do not hold. Public moves (`turn.event`) are not searched: they are what the partner chose to say.
 * Private moves (`to`, issue 39): each reached exactly its speaker and recipients, marked private, and no
 * word of it reached any other seat's ledger (whisper-audit.ts); `whispers` counts the non-recipients proven.
 */
export function auditRun(dir: string): { violations: string[]; checked: { ledgers: number; peerStates: number; episodes: number; paraphraseSeats: number; reveals: number; whispers: number; whisperDeliveries: number; teamMessages: number; privateMoves: number; privateNotices: number } } {
  const violations: string[] = [];
  const checked = { ledgers: 0, peerStates: 0, episodes: 0, paraphraseSeats: 0, reveals: 0, whispers: 0, whisperDeliveries: 0 };
  const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { orchestrator: { pid: number } };
  const orchestratorPid = run.orchestrator.pid;
  const scenarios = new Map(readJsonl<ScenarioFacts>(join(dir, 'scenarios.jsonl')).map((s) => [s.id, s]));

  for (const ep of readJsonl<EpisodeFacts>(join(dir, 'episodes.jsonl'))) {
    checked.episodes += 1;
    const where = `${ep.episodeId}`;
    const scenario = scenarios.get(ep.scenarioId);
    if (!scenario) {
      violations.push(`${where}: scenario ${ep.scenarioId} missing from scenarios.jsonl`);
      continue;
    }
    // pids: live seats each in their own process, none the orchestrator.
    const pids = ep.mode === 'script' ? [ep.scriptWriter?.pid ?? null] : ep.seats.map((s) => s.pid);
    if (pids.some((p) => typeof p !== 'number')) violations.push(`${where}: a live seat has no pid`);
    if (new Set(pids).size !== pids.length) violations.push(`${where}: two seats share pid ${pids.join(',')}`);
    if (pids.includes(orchestratorPid)) violations.push(`${where}: a seat ran in the orchestrator (pid ${orchestratorPid})`);
    // Every process that ever held a seat (several after a crash recovery): none may have held two seats.
    if (ep.mode !== 'script') {
      const owner = new Map<number, string>();
      for (const s of ep.seats) {
        for (const p of s.pids ?? (s.pid === null ? [] : [s.pid])) {
          const other = owner.get(p);
          if (other !== undefined && other !== s.seat) violations.push(`${where}: process ${p} hosted seats ${other} and ${s.seat}`);
          owner.set(p, s.seat);
          if (p === orchestratorPid) violations.push(`${where}: seat ${s.seat} ran in the orchestrator`);
        }
      }
    }

    const ledgerDir = join(dir, 'ledgers', ep.episodeId);
    const files = existsSync(ledgerDir) ? readdirSync(ledgerDir) : [];
    const expected = ep.mode === 'script' ? ['script.jsonl'] : scenario.seats.map((s) => `${s.seat}.jsonl`);
    for (const f of expected) if (!files.includes(f)) violations.push(`${where}: ledger ${f} missing`);
    if (ep.mode !== 'script' && ep.game === undefined) {
      const ledgers = new Map(files.map((f) => [f.replace(/\.jsonl$/, ''), readFileSync(join(ledgerDir, f), 'utf8').split('\n').filter(Boolean)]));
      const whispers = auditWhispers(where, ep.turns ?? [], ledgers);
      violations.push(...whispers.violations);
      checked.whispers += whispers.proven;
      checked.whisperDeliveries += whispers.delivered;
    }

    for (const file of files) {
      checked.ledgers += 1;
      const lines = readFileSync(join(ledgerDir, file), 'utf8').split('\n').filter(Boolean);
      const text = lines.join('\n');
      if (scenario.judgeOnly.trim() && text.includes(inJson(scenario.judgeOnly))) violations.push(`${where}/${file}: judge-only text`);
      if (ep.mode === 'script') continue;
      const seat = file.replace(/\.jsonl$/, '');
      const own = scenario.seats.find((s) => s.seat === seat);
      if (!own) {
        violations.push(`${where}/${file}: ledger of an unknown seat`);
        continue;
      }
      if (!text.includes(inJson(own.goal))) violations.push(`${where}/${file}: own goal not found (audit would be vacuous)`);
      if (ep.mode === 'agents') {
        const received = lines.map((l) => JSON.parse(l) as { type: string }).filter((f) => f.type !== 'turn.event').flatMap((f) => stringsIn(f));
        const partners = scenario.seats.filter((s) => s.seat !== seat);
        // A secret a fork revealed to this seat is no leak (where it arrived is checked below); a revealed
        // profile does not carry the secret (issue 35), so it excuses nothing.
        const kept = partners.filter((p) => !revealedFields(ep, p.seat, seat).has('secret'));
        const runs = leakedRuns({ secrets: kept.map((p) => p.secret), allowed: ownSideTexts(scenario, seat) }, received);
        if (runs.length) violations.push(`${where}/${file}: runs of a partner's secret (paraphrase): ${runs.join(' | ')}`);
        checked.paraphraseSeats += 1;
      }
      for (const partner of scenario.seats.filter((s) => s.seat !== seat)) {
        // Private text the seat holds anyway (SOTOPIA gives both seats the same goal in some scenarios) proves nothing.
        const mine = ownSideTexts(scenario, seat);
        const revealed = revealedFields(ep, partner.seat, seat);
        // In mindreaders mode the seat knew it from the start anyway: the mindreaders rule below applies.
        const isRevealed = (t: string) => ep.mode === 'agents' && ((t === partner.goal && revealed.has('goal')) || (t === partner.secret && (revealed.has('secret') || revealed.has('profile'))));
        const fresh = (t: string) => t.trim() !== '' && !mine.some((m) => m.includes(t));
        // A fork's reveal: the text first arrives in a fork_reveal peer.state, in the ledger's live part.
        for (const m of [partner.goal, partner.secret].filter((t) => fresh(t) && isRevealed(t)).map(inJson)) {
          const first = lines.findIndex((l) => l.includes(m));
          const frame = first === -1 ? null : (JSON.parse(lines[first]!) as { type: string; reason?: string });
          const live = ep.fork?.liveFromLine?.[seat];
          if (!frame || frame.type !== 'peer.state' || frame.reason !== 'fork_reveal' || live === undefined || first < live) {
            violations.push(`${where}/${file}: partner ${partner.seat}'s revealed text does not first arrive in a fork_reveal peer.state of the live part`);
          } else checked.reveals += 1;
        }
        const marks = [partner.goal, partner.secret].filter((t) => fresh(t) && !isRevealed(t)).map(inJson);
        if (marks.length === 0) continue;
        if (ep.mode === 'agents') {
          for (const m of marks) if (text.includes(m)) violations.push(`${where}/${file}: partner ${partner.seat}'s private text leaked in agents mode`);
          continue;
        }
        // mindreaders: the first line carrying either must be a peer.state frame carrying both.
        const first = lines.findIndex((l) => marks.some((m) => l.includes(m)));
        if (first === -1) {
          violations.push(`${where}/${file}: partner ${partner.seat}'s goal/secret never arrived in mindreaders mode`);
          continue;
        }
        const frame = JSON.parse(lines[first]!) as { type: string };
        if (frame.type !== 'peer.state' || !marks.every((m) => lines[first]!.includes(m))) {
          violations.push(`${where}/${file}: partner ${partner.seat}'s private text first appears in a ${frame.type} frame`);
        } else {
          checked.peerStates += 1;
        }
      }
    }
  }
  // Hidden-role games: team channels, private moves and private notices (game-audit.ts).
  const games = auditGames(dir);
  violations.push(...games.violations);
  return { violations, checked: { ...checked, ...games.checked } };
}
