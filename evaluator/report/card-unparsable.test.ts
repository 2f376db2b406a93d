import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../protocol/index.js';
import { loadRunDir } from '../run-dir.js';
import { episode, openScenario, writeRunDir } from '../testing/fixtures.js';
import { buildTranscript, transcriptText } from '../transcript/transcript.js';
import { buildCard, cardMarkdown } from './card.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const unparsable = { code: ErrorCode.PolicyUnparsable, message: 'unreadable reply after one reformat request: no JSON object found' };

/** An agents episode whose turn 1 was an unreadable reply recorded as none, and a script episode whose script was. */
function records() {
  const s = openScenario();
  const agents = episode({ scenario: s, moves: [['a', 'speak', 'hi'], ['b', 'none', ''], ['a', 'speak', 'bye']] });
  agents.turns[1]!.unparsable = unparsable;
  agents.turns[1]!.reformatModel = 'openai:gpt-3.5-turbo';
  const script = episode({ scenario: s, mode: 'script' });
  script.scriptWriter!.unparsable = { ...unparsable, message: 'no turns found' };
  return { s, agents, script };
}

describe('unreadable replies recorded as none are visible', () => {
  it('on the simulation card: counted, with the protocol setting named', async () => {
    const { s, agents, script } = records();
    const dir = await writeRunDir([s], [agents, script], { protocol: { name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', leakJudgeOnly: [], showRelationshipStory: false, onUnparsable: 'none' } });
    dirs.push(dir);
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const card = buildCard([loaded.run]);
    expect(card.unparsable).toEqual({ turns: 1, scripts: 1 });
    const md = cardMarkdown(card).join('\n');
    expect(md).toContain('unreadable replies recorded as `none` (--on-unparsable none): 1 agent turn(s), 1 script(s) made empty');
    expect(md).toContain('`--on-unparsable none`');
    expect(md).toContain('reformat requests sent to a reformat model (--reformat-model): openai:gpt-3.5-turbo ×1');
  });

  it('in the transcript (parley show): the none line says it was an unreadable reply, and why', () => {
    const { s, agents } = records();
    const text = transcriptText(buildTranscript(agents, s));
    expect(text).toMatch(/#1 .* \[none\] — unreadable reply recorded as none \(policy\/unparsable: unreadable reply after one reformat request: no JSON object found\)/);
  });
});
