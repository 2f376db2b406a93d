import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { promptTurn, snapshot } from './fork-helpers.js';
import { parley, tempDir, within } from './helpers/processes.js';
import { botRunFixture, copyOf } from './helpers/run-fixture.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
/** The off-record marker every probe message starts with (probes/definitions.ts). */
const isProbe = (messages: Array<{ content?: unknown }>) => String(messages.at(-1)?.content ?? '').startsWith('[A question outside the conversation.');

/** Issue 36, contracts 1 and 3: a bot run of MutualFriends in agents and mindreaders, and one of Craigslist. */
describe('parley probe on bot runs (issue 36: contracts 1 and 3)', () => {
  const r = tempDir('probe-mf');
  const cl = tempDir('probe-cl');
  const out = tempDir('probe-out');
  beforeAll(async () => {
    // Multiplexed: 2 agent processes instead of 6 for these 4 bot episodes (what is probed is their ledgers).
    const mf = await parleyRunInProcess(['--scenarios', 'builtin', '--subset', 'mutual_friends', '--modes', 'agents,mindreaders', '--limit', '4', '--concurrency', '2', '--multiplex', '--out', r.path], cleanEnv());
    expect(mf.code, mf.stderr).toBe(0);
    // Any Craigslist run will do (the probe refuses it): test/eval-batch.test.ts's, built once for both.
    copyOf(await botRunFixture(['--subset', 'craigslist_bargains', '--modes', 'agents', '--limit', '2']), cl.path);
  });
  afterAll(() => [r, cl, out].forEach((d) => d.remove()));

  it('contract 1: --probe shared-friend --seat agent1 --at all runs offline; the report shows accuracy by turn per mode, mindreaders >= agents at the last turn', async () => {
    const before = snapshot(r.path);
    const file = join(out.path, 'sf.jsonl');
    const probe = await parleyCliInProcess(['probe', r.path, '--probe', 'shared-friend', '--seat', 'agent1', '--at', 'all', '--out', file], cleanEnv());
    expect(probe.code, probe.stderr).toBe(0);
    // The run is only read: every file byte-identical.
    expect(snapshot(r.path)).toEqual(before);
    const answers = lines(file);
    const episodes = readEpisodes(r.path);
    // One answer per turn agent1 was asked to move, in every episode (round robin: agent1 plays the even turns).
    const expected = episodes.reduce((n, e) => n + e.turns.filter((t) => t.seat === 'agent1').length, 0);
    expect(answers).toHaveLength(expected);
    for (const a of answers) {
      expect(a).toMatchObject({ probe: 'shared-friend', seat: 'agent1', model: 'bot', scorer: 'exact' });
      expect(a.score).toBe(a.answer === a.truth ? 1 : 0);
      expect(episodes.some((e) => e.episodeId === a.episode && e.mode === a.mode)).toBe(true);
    }
    const rep = await parleyCliInProcess(['report', r.path, '--probes', file, '--out', join(out.path, 'rep')], cleanEnv());
    expect(rep.code, rep.stderr).toBe(0);
    const last = (mode: string) => Number(new RegExp(`shared-friend\\s+${mode}\\s+last turn\\s+n=\\d+\\s+share correct ([\\d.]+)`).exec(rep.stdout)![1]);
    for (const mode of ['agents', 'mindreaders']) {
      const n = episodes.filter((e) => e.mode === mode).length;
      expect(n).toBeGreaterThan(0);
      expect(rep.stdout).toMatch(new RegExp(`shared-friend\\s+${mode}\\s+turn\\s+0\\s+n=${n}\\s+share correct`));
    }
    expect(last('mindreaders')).toBeGreaterThanOrEqual(last('agents'));
    const md = readFileSync(join(out.path, 'rep', 'probes.md'), 'utf8');
    expect(md).toMatch(/\| agents \| 0 \| \d+ \| [\d.]+ \[[\d.]+, [\d.]+\] \|/);
    expect(readFileSync(join(out.path, 'rep', 'shared-friend.svg'), 'utf8')).toContain('<svg');
    // Rerunning resumes: nothing asked again, nothing added.
    const again = await parleyCliInProcess(['probe', r.path, '--probe', 'shared-friend', '--seat', 'agent1', '--at', 'all', '--out', file], cleanEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`wrote 0 answer(s) to ${file} (${expected} already there`);
    expect(lines(file)).toHaveLength(expected);
  });

  it('contract 3: shared-friend on Craigslist, --at 999 and an unknown seat each exit 2 with one line and write nothing', async () => {
    const file = join(out.path, 'refused.jsonl');
    const cases: Array<[string, string[], RegExp]> = [
      [cl.path, ['--probe', 'shared-friend', '--at', 'all'], /no ground truth for craigslist/],
      [r.path, ['--probe', 'shared-friend', '--at', '999'], /--at 999: past the end of every chosen episode/],
      [r.path, ['--probe', 'shared-friend', '--at', '0', '--seat', 'agent9'], /unknown seat 'agent9'/],
    ];
    for (const [dir, args, message] of cases) {
      const before = snapshot(dir);
      const run = await parleyCliInProcess(['probe', dir, '--seat', 'agent1', ...args, '--out', file], cleanEnv());
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
      expect(existsSync(file)).toBe(false);
      expect(snapshot(dir)).toEqual(before);
    }
  });
});

/** Issue 36, contract 2: an LLM run against the fake OpenAI-compatible server, then --probe partner-goal --at 2,4. */
describe('parley probe on an LLM run (issue 36: contract 2)', () => {
  let server: FakeLlmServer;
  const r = tempDir('probe-llm');
  const out = tempDir('probe-llm-out');
  beforeAll(async () => {
    server = await startFakeLlmServer({
      default: (q) => (isProbe(q.body.messages ?? []) ? (q.body.model === 'slow-probe' ? reply.slow(1500, 'Slowly: the friend we share.') : reply.text('They want to find the friend we share.')) : reply.json({ action_type: 'speak', argument: `speaking at turn ${promptTurn(q)}` })),
    });
    const run = await parleyRunInProcess(['--scenarios', 'builtin', '--modes', 'agents', '--limit', '2', '--max-turns', '6', '--concurrency', '1', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--out', r.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(async () => {
    await server.close();
    r.remove();
    out.remove();
  });

  it('one request per (episode, turn), each the seat\'s exact prompt then the probe; none for the prefix; the run byte-identical', async () => {
    const before = snapshot(r.path);
    const sent = server.requests.length;
    const file = join(out.path, 'goal.jsonl');
    const probe = await parleyCliInProcess(['probe', r.path, '--probe', 'partner-goal', '--seat', 'agent1', '--at', '2,4', '--out', file], cleanEnv(server.env()));
    expect(probe.code, probe.stderr).toBe(0);
    expect(snapshot(r.path)).toEqual(before);
    const episodes = readEpisodes(r.path);
    expect(episodes).toHaveLength(2);
    const fresh = server.requests.slice(sent);
    // Exactly one request per (episode, turn), every one a probe: nothing re-sent for the replayed prefix.
    expect(fresh).toHaveLength(episodes.length * 2);
    expect(fresh.every((q) => isProbe(q.body.messages ?? []))).toBe(true);
    const answers = lines(file);
    expect(answers).toHaveLength(4);
    for (const e of episodes) {
      const cassette = readCassette(join(r.path, 'cassettes', e.episodeId, 'agent1.jsonl'))!;
      for (const turn of [2, 4]) {
        const recorded = cassette.find((c) => c.request.messages.some((m) => new RegExp(`You are at Turn #${turn}[.;]`).test(m.content)))!;
        // The probe request is the seat's recorded prompt at that turn, message for message, plus the probe.
        const match = fresh.find((q) => JSON.stringify(q.body.messages!.slice(0, -1)) === JSON.stringify(recorded.request.messages));
        expect(match, `episode ${e.episodeId} turn ${turn}`).toBeDefined();
        expect(String(match!.body.messages!.at(-1)!.content)).toContain('What do you believe your partner is trying to achieve');
        const line = answers.find((a) => a.episode === e.episodeId && a.turn === turn)!;
        expect(line).toMatchObject({ run: expect.any(String), seat: 'agent1', probe: 'partner-goal', model: 'openai:gpt-3.5-turbo', answer: 'They want to find the friend we share.', score: null });
      }
    }
  });

  it('--dry-run prints questions, tokens and cost per model and sends nothing; --rpm and --batch-poll are checked', async () => {
    const sent = server.requests.length;
    const dry = await parleyCliInProcess(['probe', r.path, '--probe', 'partner-goal', '--seat', 'agent1', '--at', '2,4', '--judge', 'openai:gpt-4', '--dry-run'], cleanEnv(server.env()));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/answers from openai:gpt-3\.5-turbo: 4 request\(s\), ~\d+ prompt \+ ~240 completion tokens, ~\$\d+\.\d{4}/);
    expect(dry.stdout).toMatch(/scores from judge openai:gpt-4: 4 request\(s\), ~\d+ prompt \+ ~12 completion tokens, ~\$\d+\.\d{4}/);
    expect(dry.stdout).toMatch(/total: ~\$\d+\.\d{4}/);
    expect(dry.stdout).toContain('dry run: nothing sent, nothing written');
    const batchDry = await parleyCliInProcess(['probe', r.path, '--probe', 'partner-goal', '--seat', 'agent1', '--at', '2,4', '--batch', '--dry-run'], cleanEnv(server.env()));
    expect(batchDry.stdout).toMatch(/answers from openai:gpt-3\.5-turbo: 4 request\(s\).*at the batch price/);
    expect(server.requests.length).toBe(sent);
    for (const [extra, message] of [[['--rpm', '-1'], /--rpm: expected a non-negative integer/], [['--batch-poll', '1'], /--batch-poll needs --batch/]] as const) {
      const bad = await parleyCliInProcess(['probe', r.path, '--probe', 'partner-goal', '--seat', 'agent1', '--at', '2', '--out', join(out.path, 'never.jsonl'), ...extra], cleanEnv(server.env()));
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(message);
      expect(existsSync(join(out.path, 'never.jsonl'))).toBe(false);
    }
  });

  it('--batch: killed while its batch is pending, the same command collects that batch (no second one) and writes the live answers; progress lines off a terminal', async () => {
    const file = join(out.path, 'batched.jsonl');
    const batchesBefore = server.batches.batches.length;
    const live = () => server.requests.filter((q) => q.path === '/v1/chat/completions' && !q.viaBatch).length;
    const liveBefore = live();
    const argv = ['probe', r.path, '--probe', 'partner-goal', '--seat', 'agent1', '--at', '2,4', '--rpm', '600', '--out', file, '--batch', '--batch-poll', '0.05'];
    server.batches.hold();
    const first = parley(argv, { env: cleanEnv(server.env()) });
    try {
      await within(first.line(/batch \S+ \(openai:gpt-3\.5-turbo\): in_progress · 0\/4 requests done/), 30_000, 'the batch in progress', [first]);
    } finally {
      first.kill();
    }
    await first.exited;
    server.batches.release();
    expect(existsSync(file)).toBe(false);
    const record = () => JSON.parse(readFileSync(`${file}.batch.json`, 'utf8')) as { batches: Array<{ id: string; collectedAt?: string; customIds: string[] }> };
    expect(record().batches).toHaveLength(1);
    expect(record().batches[0]!.collectedAt).toBeUndefined();

    const again = await parleyCliInProcess(argv, cleanEnv(server.env()));
    expect(again.code, again.stderr).toBe(0);
    const id = server.batches.batches[batchesBefore]!.id;
    expect(again.stderr).toContain(`resuming batch ${id}`);
    expect(again.stdout).toContain(`wrote 4 answer(s) to ${file}; 4 answered by the batch`);
    expect(again.stderr).toContain('probed 4/4');
    expect(server.batches.batches.length - batchesBefore).toBe(1);
    expect(live()).toBe(liveBefore);
    expect(record().batches[0]!.collectedAt).toEqual(expect.any(String));
    const answers = lines(file);
    expect(answers).toHaveLength(4);
    expect(answers.every((a) => a.answer === 'They want to find the friend we share.' && a.model === 'openai:gpt-3.5-turbo')).toBe(true);
    // The batched questions are the live ones: the seat's prompt then the probe.
    expect(server.requests.filter((q) => q.viaBatch && isProbe(q.body.messages ?? []))).toHaveLength(4);
  });

  it('Ctrl-C stops new questions, keeps every answer already written (exit 130), and the same command resumes the rest', async () => {
    const file = join(out.path, 'interrupted.jsonl');
    const argv = ['probe', r.path, '--probe', 'partner-goal', '--seat', 'agent1', '--at', '2,4', '--model', 'openai:slow-probe', '--concurrency', '1', '--out', file];
    const first = parley(argv, { env: cleanEnv(server.env()) });
    await within(first.line(/probed 1\/4/), 30_000, 'the first answer', [first]);
    first.child.kill('SIGINT');
    const code = await within(first.exited, 30_000, 'the interrupted probe', [first]);
    expect(code).toBe(130);
    const kept = lines(file);
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(4);
    expect(kept.every((a) => a.answer === 'Slowly: the friend we share.')).toBe(true);
    const again = await parleyCliInProcess(argv, cleanEnv(server.env()));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`(${kept.length} already there, not asked again)`);
    expect(lines(file)).toHaveLength(4);
  });
});
