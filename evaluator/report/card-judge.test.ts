import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { judgementOf } from '../testing/fake-judge.js';
import { episode, mfScenario, writeRunDir } from '../testing/fixtures.js';
import { loadRunDir } from '../run-dir.js';
import { buildCard, cardMarkdown } from './card.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function evaluation(visibility: 'full' | 'blind', view?: 'paper' | 'parley') {
  return { v: 1, judge: judgementOf({ spec: `openai:gpt-4-${visibility}-${view ?? 'none'}`, visibility, temperature: 0, promptVersion: 'p', ...(view ? { view } : {}) }) };
}

describe('the simulation card says what each judge saw', () => {
  it('names the paper view, Parley\'s full view (also for records from before views) and the blind judge', async () => {
    const mf = mfScenario();
    const runs = [];
    for (const [visibility, view] of [['full', 'paper'], ['full', 'parley'], ['full', undefined], ['blind', undefined]] as const) {
      const dir = await writeRunDir([mf], [episode({ scenario: mf, evaluation: evaluation(visibility, view) })]);
      dirs.push(dir);
      const loaded = await loadRunDir(dir);
      if (!loaded.ok) throw new Error(loaded.error.message);
      runs.push(loaded.run);
    }
    const lines = cardMarkdown(buildCard(runs)).filter((l) => l.startsWith('- `openai:gpt-4-'));
    const line = (spec: string) => lines.find((l) => l.startsWith(`- \`${spec}\``)) ?? `(no line for ${spec})`;
    expect(line('openai:gpt-4-full-paper')).toContain("sees the paper view: SOTOPIA's judge information only");
    expect(line('openai:gpt-4-full-parley')).toContain("sees Parley's full view:");
    expect(line('openai:gpt-4-full-none')).toContain("sees Parley's full view:");
    expect(line('openai:gpt-4-blind-none')).toContain("sees blind: the public transcript and the evaluated seat's own goal only");
  });
});
