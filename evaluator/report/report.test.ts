import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIMENSIONS } from '../dimensions.js';
import { clScenario, episode, mfScenario, openScenario, writeRunDir } from '../testing/fixtures.js';
import { validReply } from '../testing/fake-judge.js';
import { markdownToHtml } from './markdown-html.js';
import { writeReport } from './report.js';
import { barChart } from './svg.js';
import { esc, xmlWellFormedError } from './xml.js';
import { tempRuns } from '../testing/temp-runs.js';

const runs = tempRuns();

function judged(seats: string[], goal: number) {
  const reply = validReply(seats, { score: (d) => (d === 'goal' ? goal : 0) }) as { evaluations: Record<string, unknown> };
  return {
    v: 1,
    judge: {
      judge: { spec: 'openai:gpt-4', model: 'gpt-4', visibility: 'full', temperature: 0, promptVersion: 'parley-judge-1' },
      evaluatedAt: '2024-01-01T00:00:00.000Z',
      seats: Object.fromEntries(seats.map((s) => [s, { ok: true, scores: reply.evaluations[s] }])),
      calls: 1,
      usage: { prompt: 1, completion: 1 },
      latencyMs: 1,
    },
  };
}

const load = runs.load;

describe('XML well-formedness check', () => {
  it('accepts well-formed documents and rejects broken ones', () => {
    expect(xmlWellFormedError('<?xml version="1.0"?>\n<svg a="1"><g><text>x &amp; y</text></g><!-- c --><rect/></svg>')).toBeNull();
    const bad = ['<svg>', '<svg></g>', '<svg a=1/>', '<svg a="1" a="2"/>', '<svg>&nbsp;</svg>', '<svg>a < b</svg>', '<a/><b/>', 'text<svg/>', '<svg x="<"/>', '', '<svg><g></svg></g>'];
    for (const b of bad) expect(xmlWellFormedError(b), b).not.toBeNull();
  });
  it('escapes text so labels with markup characters stay well-formed', () => {
    const svg = barChart({ title: 'A & B <c> "d"', yLabel: "it's", series: ['x<y'], groups: [{ label: '&', bars: [{ series: 'x<y', value: 1, lo: 0.5, hi: 1.5, n: 2 }] }] });
    expect(xmlWellFormedError(svg)).toBeNull();
    expect(esc('<&>"\'')).toBe('&lt;&amp;&gt;&quot;&apos;');
  });
  it('draws an empty chart with a note when there is no data', () => {
    const svg = barChart({ title: 't', yLabel: 'y', series: [], groups: [], emptyNote: 'no judge scores' });
    expect(xmlWellFormedError(svg)).toBeNull();
    expect(svg).toContain('no judge scores');
  });
});

describe('markdown to html', () => {
  it('renders tables, lists, headings and inline SVG figures', () => {
    const html = markdownToHtml('# T\n\n| a | b \\| c |\n|---|---|\n| 1 | `x<y` |\n\n- **bold** item\n\n![cap](charts/x.svg)\n', new Map([['charts/x.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>']]));
    expect(html).toContain('<h1>T</h1>');
    expect(html).toContain('<th>b | c</th>');
    expect(html).toContain('<code>x&lt;y</code>');
    expect(html).toContain('<li><strong>bold</strong> item</li>');
    expect(html).toContain('<figure><svg xmlns="http://www.w3.org/2000/svg"/><figcaption>cap</figcaption></figure>');
  });
});

describe('writeReport', () => {
  it('writes report.md with the by-mode table, report.html and well-formed SVG charts', async () => {
    const mf = mfScenario();
    const cl = clScenario();
    const op = openScenario();
    const ok = { kind: 'mutual_friends', selections: { a: 'Jane Doe', b: 'Jane Doe' }, answer: 'Jane Doe', success: true } as const;
    const eps = [
      episode({ scenario: mf, mode: 'script', moves: [['a', 'speak', 'Jane Doe?'], ['b', 'action', 'select Jane Doe'], ['a', 'action', 'select Jane Doe']], outcome: ok, evaluation: judged(['a', 'b'], 9) }),
      episode({ scenario: mf, mode: 'agents', moves: [['a', 'speak', 'I know Tom Lee and others'], ['b', 'speak', 'no']], evaluation: judged(['a', 'b'], 3) }),
      episode({ scenario: mf, mode: 'mindreaders', moves: [['a', 'speak', 'Jane Doe!']], outcome: ok }),
      episode({ scenario: cl, mode: 'script', moves: [['a', 'action', 'offer $80'], ['b', 'action', 'accept']], outcome: { kind: 'craigslist', deal: true, price: 80, acceptedBy: 'b', success: true } }),
      episode({ scenario: cl, mode: 'agents', moves: [['a', 'action', 'quit']] }),
      episode({ scenario: op, mode: 'agents', moves: [['a', null]], status: 'failed' }),
    ];
    const run = await load(await writeRunDir([mf, cl, op], eps));
    const out = await writeReport([run], { outDir: run.dir });
    const md = await readFile(path.join(run.dir, 'report.md'), 'utf8');
    expect(md).toContain('| mode | models | subset | episodes | failed | success | turns | words/turn |');
    expect(md).toMatch(/\| script \| writer bot:writer \| all \| 2 \| 0 \| 1\.00 \[1\.00, 1\.00\] \(2\) \|/);
    expect(md).toMatch(/\| agents \| bot:a × bot:b \| all \| 3 \| 1 \|/);
    expect(md).toContain('## Judge scores (SOTOPIA-EVAL)');
    expect(md).toMatch(/\| script \| writer bot:writer \| all \| 2 \| 0 \|.*9\.00 \(1\) \|$/m);
    expect(md).toContain('| script − agents | goal | 1 | 6.00 | 1.000 |');
    expect(md).toContain('## Simulation card');
    expect(md).toContain('`mindreaders`: As agents, plus');
    expect(md).toContain('`openai:gpt-4` (model gpt-4), rubric sotopia, temperature 0');
    expect(md).toContain('policy_error ×1');
    const html = await readFile(path.join(run.dir, 'report.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    const inline = html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    expect(inline).toHaveLength(5);
    for (const svg of inline) expect(xmlWellFormedError(svg)).toBeNull();
    expect(out.chartFiles.map((f) => path.basename(f)).sort()).toEqual(['deal-rate.svg', 'first-mention.svg', 'goal-by-mode.svg', 'success-by-mode.svg', 'words-per-turn.svg']);
    for (const f of out.chartFiles) {
      const text = await readFile(f, 'utf8');
      expect(xmlWellFormedError(text), f).toBeNull();
      expect(md).toContain(`charts/${path.basename(f)}`);
    }
    expect(await readFile(path.join(run.dir, 'charts', 'goal-by-mode.svg'), 'utf8')).toContain('goal (0–10)');
    expect(existsSync(path.join(run.dir, 'report.md.tmp'))).toBe(false);
  });

  it('combines several run directories into one report', async () => {
    const mf = mfScenario();
    const a = await load(await writeRunDir([mf], [episode({ scenario: mf, mode: 'script', runId: 'run-a', moves: [['a', 'speak', 'hi']] })]));
    const b = await load(await writeRunDir([mf], [episode({ scenario: mf, mode: 'agents', runId: 'run-b', models: ['openai:gpt-4', 'openai:gpt-4'], moves: [['a', 'speak', 'hello you']] })]));
    const out = await writeReport([a, b], { outDir: a.dir });
    expect(out.episodes).toBe(2);
    expect(out.markdown).toContain('`run-a`');
    expect(out.markdown).toContain('`run-b`');
    expect(out.markdown).toContain('| agents | openai:gpt-4 × openai:gpt-4 | all | 1 | 0 |');
    // different runs are never paired
    expect(out.gaps).toEqual([]);
  });

  it('reports a run with no judge scores, no speech and no task without failing', async () => {
    const op = openScenario();
    const run = await load(await writeRunDir([op], [episode({ scenario: op, moves: [['a', 'non-verbal communication', 'waves']] })]));
    const out = await writeReport([run], { outDir: run.dir });
    expect(out.markdown).toContain('No judge scores in these runs');
    for (const c of out.charts) expect(xmlWellFormedError(c.svg)).toBeNull();
    expect(DIMENSIONS).toHaveLength(7);
  });
});
