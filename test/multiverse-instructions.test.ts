import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { cleanEnv, parleyCliInProcess } from './llm-run-helpers.js';
import { scriptOverAgentsClaim } from './helpers/multiverse-claim.js';

/**
 * Instruction framing as a multiverse axis (issue 43): `instructions: [default, goal-first]` sends the
 * shipped goal-first variant's words to the agents of one arm only, and leaves the script writer's arm
 * shared (the variant has no script template); a directory of the user's own is read only with
 * --allow-path, else exit 2 and nothing written.
 */
const claimText = (values: string) => scriptOverAgentsClaim('framing', 'words_per_turn', { model: 'openai:gen-a', limit: 1, maxTurns: 4 }, { instructions: values });

describe('parley multiverse with an instructions axis', () => {
  const suite = fakeLlmSuite('multiverse-instructions');
  const { tmp } = suite;

  it('the goal-first variant reaches the agents of its arm only; the script arm is shared', async () => {
    const claim = join(tmp.path, 'claim.yaml');
    writeFileSync(claim, claimText('[default, goal-first]'));
    const out = join(tmp.path, 'mv');
    const run = await parleyCliInProcess(['multiverse', claim, '--out', out], cleanEnv(suite.server.env()), 240_000);
    expect(run.code, run.stderr).toBe(0);
    // One script arm, two agents arms.
    expect(readdirSync(join(out, 'arms'))).toHaveLength(3);
    const framed = suite.server.requests.filter((q) => JSON.stringify(q.body.messages).includes('Above all, get'));
    const agentCalls = suite.server.requests.filter((q) => (q.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === 'parley_action');
    expect(framed.length).toBeGreaterThan(0);
    // Half of the agents' calls (one of the two agents arms, same scenario) carry the variant's words.
    expect(framed.length * 2).toBe(agentCalls.length);
  }, 240_000);

  it('a directory of your own needs --allow-path: refused with exit 2 and nothing written, then read', async () => {
    const mine = join(tmp.path, 'my-prompts');
    mkdirSync(mine);
    writeFileSync(join(mine, 'agent.md'), '<!-- system -->\nYou are {{name}}. Mine-framing.\n<!-- user -->\n{{scenario}}\n{{goal}}\n{{history}}\nAnswer with JSON: {"action_type": "...", "argument": "..."}; one of {{actions}}.\n');
    const claim = join(tmp.path, 'mine.yaml');
    writeFileSync(claim, claimText(`[default, ${mine}]`));
    const out = join(tmp.path, 'mine-out');
    const refused = await parleyCliInProcess(['multiverse', claim, '--out', out], cleanEnv(suite.server.env()));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`give --allow-path ${mine}`);
    expect(existsSync(out)).toBe(false);
    const before = suite.server.requests.length;
    const allowed = await parleyCliInProcess(['multiverse', claim, '--out', out, '--allow-path', mine], cleanEnv(suite.server.env()), 240_000);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(suite.server.requests.slice(before).some((q) => JSON.stringify(q.body.messages).includes('Mine-framing'))).toBe(true);
  }, 240_000);
});
