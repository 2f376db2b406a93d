import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../protocol/index.js';
import { reply, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { cleanEnv, parleyRunInProcess, readEpisodes, readRunJson } from './llm-run-helpers.js';
import { paperMiniSuite, requestText, requestTurn, transcriptAndCard } from './helpers/paper-mini-suite.js';

/** The one agent turn whose reply stays prose, to its request and to its reformat request. */
const HOPELESS_TURN = 2;
const PROSE = 'I think I would smile and ask how their day has been.';
const STILL_PROSE = 'They smile and ask about the day.';

/** SOTOPIA's reformat request: a fresh request to gpt-3.5-turbo (the seats play gpt-4-0613). */
const isReformat = (q: ReceivedRequest) => q.body.model === 'gpt-3.5-turbo';

/**
 * Issue 20, contract 4: under `--protocol paper`, the fake server answers one agent turn with prose twice
 * (the request and the reformat request). That turn is `none`, the episode is `ok`, run.json counts the
 * turn; `--on-unparsable fail` keeps the explicit failure. The real CLI, SOTOPIA-shaped scenarios (the
 * fixture every clone has), `openai:` seats against the fake server on 127.0.0.1.
 */
describe('an unreadable agent reply under --protocol paper (issue 20, contract 4)', () => {
  const suite = paperMiniSuite('paper-unparsable');
  const { tmp, scenarios } = suite;
  beforeEach(() => {
    // Prose for turn HOPELESS_TURN's request and for its reformat request (the only one); plausible moves otherwise.
    let hopeless = 0;
    suite.server.setDefault((q) => {
      if (isReformat(q) && hopeless === 1) {
        hopeless++;
        return reply.text(STILL_PROSE);
      }
      if (!isReformat(q) && requestTurn(q) === HOPELESS_TURN && hopeless === 0) {
        hopeless++;
        return reply.text(PROSE);
      }
      return reply.plausible();
    });
  });

  const run = suite.agentsEpisode;

  it('the turn is a none that says why, the episode is ok and goes on, run.json and the card count it, one reformat request was sent', async () => {
    const out = join(tmp.path, 'none');
    const result = await run(out);
    expect(result.code, result.stderr).toBe(0);
    const [episode, ...rest] = readEpisodes(out);
    expect(rest).toEqual([]);
    expect(episode!.status).toBe('ok');
    expect(episode!.errors).toEqual([]);
    const turn = episode!.turns[HOPELESS_TURN]!;
    expect(turn).toMatchObject({
      action: { type: 'none', argument: '' },
      unparsable: { code: ErrorCode.PolicyUnparsable, message: expect.stringContaining(STILL_PROSE) },
      repairs: { lenient: 0, reformat: 1 },
      reformatModel: 'openai:gpt-3.5-turbo',
    });
    expect(turn.error).toBeUndefined();
    // The episode went on past the unreadable turn.
    expect(episode!.turns.length).toBeGreaterThan(HOPELESS_TURN + 1);
    expect(episode!.turns.filter((t) => t.unparsable)).toHaveLength(1);

    const runJson = readRunJson(out);
    expect(runJson.stats).toMatchObject({ unparsableTurns: 1, unparsableScripts: 0, repairs: { reformat: 1 } });
    expect(runJson.protocol).toMatchObject({ name: 'paper', onUnparsable: 'none' });
    expect(result.stdout).toContain('unreadable replies recorded as none (--on-unparsable none): 1 agent turn(s)');

    // Exactly one reformat request, in SOTOPIA's shape: one user message with the prose, no response_format.
    const reformats = suite.server.requests.filter(isReformat);
    expect(reformats).toHaveLength(1);
    expect(reformats[0]!.body.messages!.map((m) => m.role)).toEqual(['user']);
    expect(requestText(reformats[0]!)).toContain(`Text: ${PROSE}`);
    expect(reformats[0]!.body.response_format).toBeUndefined();
    expect(suite.server.requests.filter((q) => !isReformat(q) && requestTurn(q) === HOPELESS_TURN)).toHaveLength(1);

    // Visible where people read runs: the transcript and the simulation card.
    const { transcript, card } = await transcriptAndCard(out);
    expect(transcript).toMatch(new RegExp(`#${HOPELESS_TURN} .* \\[none\\] — unreadable reply recorded as none \\(policy/unparsable: `));
    expect(card).toContain('unreadable replies recorded as `none` (--on-unparsable none): 1 agent turn(s)');
    expect(card).toContain('(`--on-unparsable none`)');
  });

  it('replays with no suite.server from the cassettes, the reformat request from its own (same none, same count)', async () => {
    const recorded = join(tmp.path, 'none');
    const out = join(tmp.path, 'replayed');
    const before = suite.server.requests.length;
    const result = await parleyRunInProcess(['--replay', recorded, '--out', out], cleanEnv(), 90_000);
    expect(result.code, result.stderr).toBe(0);
    expect(suite.server.requests.length).toBe(before);
    const strip = (t: { seat: string; action: unknown; unparsable?: unknown; reformatModel?: unknown }) => ({ seat: t.seat, action: t.action, unparsable: t.unparsable, reformatModel: t.reformatModel });
    expect(readEpisodes(out).map((e) => e.turns.map(strip))).toEqual(readEpisodes(recorded).map((e) => e.turns.map(strip)));
    expect(readRunJson(out).stats).toMatchObject({ unparsableTurns: 1 });
  });

  it('--on-unparsable fail keeps the explicit policy/unparsable failure, and counts nothing as none', async () => {
    const out = join(tmp.path, 'fail');
    const result = await run(out, ['--on-unparsable', 'fail']);
    expect(result.code, result.stderr).toBe(1); // every episode failed
    const [episode] = readEpisodes(out);
    expect(episode!.status).toBe('failed');
    expect(episode!.termination).toMatchObject({ reason: 'policy_error', detail: ErrorCode.PolicyUnparsable });
    expect(episode!.turns).toHaveLength(HOPELESS_TURN + 1);
    expect(episode!.turns[HOPELESS_TURN]).toMatchObject({ action: null, error: { code: ErrorCode.PolicyUnparsable, message: expect.stringContaining(STILL_PROSE) }, repairs: { reformat: 1 } });
    expect(episode!.errors.map((e) => e.code)).toEqual([ErrorCode.PolicyUnparsable]);
    const runJson = readRunJson(out);
    expect(runJson.stats).toMatchObject({ unparsableTurns: 0, episodes: { failed: 1 } });
    expect(runJson.protocol).toMatchObject({ name: 'paper', onUnparsable: 'fail' });
    expect(suite.server.requests.filter(isReformat)).toHaveLength(1);
  });

  it('script mode: an unreadable script (after its one reformat request) is an empty dialogue (SOTOPIA\'s empty interaction), ok, counted apart', async () => {
    suite.server.setDefault((q) => reply.text(isReformat(q) ? STILL_PROSE : 'INT. A PARTY. The two talk for a while and part as friends.'));
    const out = join(tmp.path, 'script');
    const result = await suite.scriptEpisode(out);
    expect(result.code, result.stderr).toBe(0);
    const [episode] = readEpisodes(out);
    expect(episode).toMatchObject({ status: 'ok', turns: [], errors: [], termination: { reason: 'script_end', detail: expect.stringContaining('--on-unparsable none') } });
    expect(episode!.scriptWriter).toMatchObject({ unparsable: { code: ErrorCode.PolicyUnparsable }, repairs: { reformat: 1 }, reformatModel: 'openai:gpt-3.5-turbo' });
    expect(readRunJson(out).stats).toMatchObject({ unparsableTurns: 0, unparsableScripts: 1 });
    const reformats = suite.server.requests.filter(isReformat);
    expect(reformats).toHaveLength(1);
    expect(requestText(reformats[0]!)).toContain('INT. A PARTY.');
  });

  it('--dry-run says where the reformat request goes and what becomes of a still unreadable reply', async () => {
    const args = ['--scenarios', scenarios, '--protocol', 'paper', '--modes', 'agents', '--agent1', 'openai:gpt-4-0613', '--agent2', 'mistral:open-mixtral-8x7b', '--dry-run', '--out', join(tmp.path, 'dry')];
    const env = cleanEnv({ OPENAI_API_KEY: 'x', MISTRAL_API_KEY: 'x' });
    const plain = await parleyRunInProcess(args, env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('an unreadable reply gets one reformat request (openai:gpt-4-0613 → openai:gpt-3.5-turbo; mistral:open-mixtral-8x7b → the same model, in a fresh request); still unreadable, the turn is a counted none');
    const failing = await parleyRunInProcess([...args, '--on-unparsable', 'fail', '--reformat-model', 'openai:my-fixer'], env);
    expect(failing.stdout).toContain('(openai:gpt-4-0613 → openai:my-fixer; mistral:open-mixtral-8x7b → openai:my-fixer); still unreadable, the episode fails (--on-unparsable fail)');
    expect(suite.server.requests).toHaveLength(0);
  });
});
