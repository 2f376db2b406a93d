import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { replyForSchema } from '../../evaluator/testing/fake-judge.js';
import { reply, type FakeReply, type ReceivedRequest, type ReplyFn } from '../../testkit/fake-llm-server.js';
import { cleanEnv, parleyCliInProcess, type CliRun } from '../llm-run-helpers.js';
import { fakeLlmSuite, type FakeLlmSuite } from './fake-llm-suite.js';

/** The JSON schema a judge request carries: the rubric's dimensions and ranges, per seat. */
export const judgeSchemaOf = (q: ReceivedRequest): Record<string, unknown> => (q.body.response_format?.json_schema?.schema ?? {}) as Record<string, unknown>;

/** A judge that answers whatever rubric a request's schema asks, each dimension at `score(dim, seat, min, max)`. */
export function judgeInRange(score: (dim: string, seat: string, min: number, max: number) => number): (q: ReceivedRequest) => FakeReply {
  return (q) => reply.json(replyForSchema(judgeSchemaOf(q), score));
}

/** What a test file of judging commands (`eval`, `report`, `export`) against a fake judge shares. */
export interface JudgeCliSuite extends FakeLlmSuite {
  /** Runs `parley <args>` to its end (in this process) with the fake judge's provider variables (and no others). */
  cli(args: string[]): Promise<CliRun>;
  /** Takes a run directory written outside the scratch folder (`writeRunDir`) to remove after the tests. */
  keep(dir: string): string;
}

/**
 * Registers, in the calling `describe` (or file), a fake judge answering every request with `judge`, a
 * scratch folder named by `prefix`, and the run directories the tests keep, removed after the tests.
 */
export function judgeCliSuite(prefix: string, judge: ReplyFn): JudgeCliSuite {
  const suite = fakeLlmSuite(prefix, { default: judge });
  const kept: string[] = [];
  afterAll(() => {
    for (const d of kept) rmSync(d, { recursive: true, force: true });
  });
  return {
    tmp: suite.tmp,
    get server() {
      return suite.server;
    },
    // In this process (testkit/in-process-cli.ts): these files check what eval, report and export print and write.
    cli: (args) => parleyCliInProcess(args, cleanEnv(suite.server.env())),
    keep: (dir) => {
      kept.push(dir);
      return dir;
    },
  };
}

/** `judge`, except that a request for the Craigslist deal (its schema asks for `deal`) is told of a deal at $70. */
export function agreedDealOr(judge: (q: ReceivedRequest) => FakeReply): (q: ReceivedRequest) => FakeReply {
  return (q) => ('deal' in ((judgeSchemaOf(q)['properties'] as object | undefined) ?? {}) ? reply.json({ deal: { reasoning: 'agreed', deal_reached: true, price: 70 } }) : judge(q));
}
