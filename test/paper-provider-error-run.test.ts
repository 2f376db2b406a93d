import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { LlmErrorCode } from '../protocol/index.js';
import { reply } from '../testkit/fake-llm-server.js';
import { readEpisodes, readRunJson } from './llm-run-helpers.js';
import { paperMiniSuite, requestTurn, transcriptAndCard } from './helpers/paper-mini-suite.js';

/** The one agent turn whose every request (the first and each retry) gets a 500. */
const FAILING_TURN = 2;
/** The client's default retries after the first attempt (llm/options.ts). */
const RETRIES = 4;

/** A 500 whose `Retry-After: 0` keeps the client's retries quick (the backoff is not what is tested here). */
const serverError = { kind: 'status', status: 500, retryAfter: '0', message: 'The suite.server had an error (fake)' } as const;

/**
 * Issue 42, provider errors: SOTOPIA's `agenerate_action` caught every exception of the LLM call and
 * returned a `none` (its script writer: an empty interaction), and the episode went on. `--on-provider-error
 * none` (the `paper` default) does the same, never silently: the turn keeps the `llm/*` failure, run.json,
 * the card and `parley show` count and say it. `--on-provider-error fail` ends the episode explicitly.
 * The real CLI, SOTOPIA-shaped scenarios, `openai:` seats against the fake server on 127.0.0.1.
 */
describe('a provider error after the retries under --protocol paper (issue 42)', () => {
  const suite = paperMiniSuite('paper-provider-error');
  const { tmp } = suite;
  beforeEach(() => {
    suite.server.setDefault((q) => (requestTurn(q) === FAILING_TURN ? serverError : reply.plausible()));
  });

  const run = suite.agentsEpisode;

  it('none (the paper default): the turn is a none carrying the llm/http_error, the episode is ok and goes on, run.json, the card and show say it', async () => {
    const out = join(tmp.path, 'none');
    const result = await run(out);
    expect(result.code, result.stderr).toBe(0);
    expect(suite.server.requests.filter((q) => requestTurn(q) === FAILING_TURN)).toHaveLength(1 + RETRIES);
    const [episode, ...rest] = readEpisodes(out);
    expect(rest).toEqual([]);
    expect(episode).toMatchObject({ status: 'ok', errors: [] });
    const turn = episode!.turns[FAILING_TURN]!;
    expect(turn).toMatchObject({ action: { type: 'none', argument: '' }, providerError: { code: LlmErrorCode.HttpError, message: expect.stringContaining('500') } });
    expect(turn.error).toBeUndefined();
    expect(turn.unparsable).toBeUndefined();
    expect(episode!.turns.length).toBeGreaterThan(FAILING_TURN + 1);
    expect(episode!.turns.filter((t) => t.providerError)).toHaveLength(1);

    const runJson = readRunJson(out);
    expect(runJson.stats).toMatchObject({ providerErrorTurns: 1, providerErrorScripts: 0, unparsableTurns: 0, episodes: { ok: 1, failed: 0 } });
    expect(runJson.protocol).toMatchObject({ name: 'paper', onProviderError: 'none' });
    expect(result.stdout).toContain('failed LLM calls recorded as none (--on-provider-error none): 1 agent turn(s), 0 script(s) made empty');

    const { transcript, card } = await transcriptAndCard(out);
    expect(transcript).toMatch(new RegExp(`#${FAILING_TURN} .* \\[none\\] — failed LLM call recorded as none \\(llm/http_error: `));
    expect(card).toContain('failed LLM calls recorded as `none` (--on-provider-error none): 1 agent turn(s), 0 script(s) made empty');
    expect(card).toContain('(`--on-provider-error none`, as SOTOPIA\'s code)');
  });

  it('fail: the same 500 ends the episode with the explicit llm/http_error, and nothing is counted as none', async () => {
    const out = join(tmp.path, 'fail');
    const result = await run(out, ['--on-provider-error', 'fail']);
    expect(result.code, result.stderr).toBe(1); // every episode failed
    expect(suite.server.requests.filter((q) => requestTurn(q) === FAILING_TURN)).toHaveLength(1 + RETRIES);
    const [episode] = readEpisodes(out);
    expect(episode).toMatchObject({ status: 'failed', termination: { reason: 'policy_error', detail: LlmErrorCode.HttpError } });
    expect(episode!.turns).toHaveLength(FAILING_TURN + 1);
    expect(episode!.turns[FAILING_TURN]).toMatchObject({ action: null, error: { code: LlmErrorCode.HttpError } });
    expect(episode!.turns[FAILING_TURN]!.providerError).toBeUndefined();
    const runJson = readRunJson(out);
    expect(runJson.stats).toMatchObject({ providerErrorTurns: 0, episodes: { failed: 1 } });
    expect(runJson.protocol).toMatchObject({ name: 'paper', onProviderError: 'fail' });
    expect(episode!.episodeId).not.toBe(readEpisodes(join(tmp.path, 'none'))[0]!.episodeId); // a departure from the default is in the id
  });

  it("script mode, none: the writer's failed call is an empty dialogue (SOTOPIA's empty interaction), ok, counted apart", async () => {
    suite.server.setDefault(serverError);
    const out = join(tmp.path, 'script');
    const result = await suite.scriptEpisode(out);
    expect(result.code, result.stderr).toBe(0);
    expect(suite.server.requests).toHaveLength(1 + RETRIES);
    const [episode] = readEpisodes(out);
    expect(episode).toMatchObject({ status: 'ok', turns: [], errors: [], termination: { reason: 'script_end', detail: expect.stringContaining('--on-provider-error none') } });
    expect(episode!.scriptWriter).toMatchObject({ providerError: { code: LlmErrorCode.HttpError } });
    expect(readRunJson(out).stats).toMatchObject({ providerErrorTurns: 0, providerErrorScripts: 1 });
  });
});
