import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, expect } from 'vitest';
import type { ReceivedRequest } from '../../testkit/fake-llm-server.js';
import { parleyInProcess } from './in-process-parley.js';
import { cleanEnv, paperGpt4Episode, parleyCliInProcess, parleyRunInProcess, type CliRun } from '../llm-run-helpers.js';
import { fakeLlmSuite, type FakeLlmSuite } from './fake-llm-suite.js';
import { sotopiaMiniDir } from './reference-data.js';

/** Imports the SOTOPIA-shaped mini fixture (on every clone) into the scenario file `out`, failing unless it exits 0. */
export async function importSotopiaMini(out: string): Promise<string> {
  expect((await parleyInProcess(['scenarios', 'import', 'sotopia', sotopiaMiniDir(), '--out', out])).code).toBe(0);
  return out;
}

/** A request's messages as one text. */
export const requestText = (q: ReceivedRequest): string => (q.body.messages ?? []).map((m) => String(m.content)).join('\n');
/** The turn an agent's paper-protocol request asks for (`You are at Turn #n`), -1 for any other request. */
export const requestTurn = (q: ReceivedRequest): number => Number(/You are at Turn #(\d+)/.exec(requestText(q))?.[1] ?? -1);

/** What a test file of paper-protocol runs of `openai:gpt-4-0613` seats on the mini fixture shares. */
export interface PaperMiniSuite extends FakeLlmSuite {
  /** The mini fixture's scenario file, imported in beforeAll. */
  readonly scenarios: string;
  /** One agents episode (`paperGpt4Episode`) into `out`. */
  agentsEpisode(out: string, extra?: string[]): Promise<CliRun>;
  /** One script episode, written by `openai:gpt-4-0613`, into `out`. */
  scriptEpisode(out: string): Promise<CliRun>;
}

/**
 * Every command here runs in the test's process (testkit/in-process-cli.ts): these files check what runs
 * write and print; the runs' seats are still agent processes.
 *
 * Registers, in the calling `describe`, a fake LLM server and a scratch folder named by `prefix` (see
 * `fakeLlmSuite`), the mini fixture imported in beforeAll, and the server's request log emptied before each test.
 */
export function paperMiniSuite(prefix: string): PaperMiniSuite {
  const suite = fakeLlmSuite(prefix);
  const scenarios = join(suite.tmp.path, 'S.jsonl');
  beforeAll(() => importSotopiaMini(scenarios), 60_000);
  beforeEach(() => {
    suite.server.requests.length = 0;
  });
  return {
    tmp: suite.tmp,
    get server() {
      return suite.server;
    },
    scenarios,
    agentsEpisode: (out, extra = []) => paperGpt4Episode(scenarios, out, suite.server.env(), extra),
    scriptEpisode: (out) =>
      parleyRunInProcess(['--scenarios', scenarios, '--protocol', 'paper', '--selection', 'all', '--modes', 'script', '--limit', '1', '--script-writer', 'openai:gpt-4-0613', '--out', out], cleanEnv(suite.server.env()), 90_000),
  };
}

/** Where people read a run: `parley show`'s transcript and the card in report.md (`parley report` must exit 0). */
export async function transcriptAndCard(out: string): Promise<{ transcript: string; card: string }> {
  const show = await parleyCliInProcess(['show', out], cleanEnv());
  const report = await parleyCliInProcess(['report', out], cleanEnv());
  expect(report.code, report.stderr).toBe(0);
  return { transcript: show.stdout, card: readFileSync(join(out, 'report.md'), 'utf8') };
}
