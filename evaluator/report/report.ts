import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { aggregate, METRIC_LABELS, pairedGaps, type GapRow, type GroupRow, type MetricName, type RubricGroup } from '../aggregate.js';
import { DIMENSION_NAMES } from '../dimensions.js';
import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import { runMetrics } from '../metrics/run-metrics.js';
import { REPETITION_N } from '../metrics/seat-metrics.js';
import { BOOTSTRAP_RESAMPLES, type Summary } from '../stats/summary.js';
import { writeFileAtomic } from '../../disk/atomic-write.js';
import type { RunDir } from '../run-dir.js';
import { buildCard, cardMarkdown, mdCell } from './card.js';
import { citeFooter } from './cite.js';
import { tableJudgesLine } from './table-judges.js';
import { drawsMarkdown } from './draws-markdown.js';
import { groupTasksMarkdown, seatRoleChart, seatRolesMarkdown } from './seat-roles.js';
import { gamesMarkdown } from '../games/games-markdown.js';
import { buildCharts, type Chart } from './charts.js';
import { markdownToHtml } from './markdown-html.js';
import { mdText } from './markdown-text.js';
import { reportCsp } from './csp.js';
import { esc, xmlWellFormedError } from './xml.js';
import { besideThePaper } from '../paper/beside.js';
import { runProtocol } from '../run-protocol.js';
import { besideMarkdown } from '../paper/beside-markdown.js';
import { loadPublished } from '../paper/published.js';
import { compareVerdictsMarkdown, judgeVariantsMarkdown } from './variants-and-verdicts.js';
import { leakReport, type LeakReport } from '../leak/leak-report.js';
import { judgePanels, type Panel } from './judge-panels.js';
import { judgePanelsMarkdown } from './judge-panels-markdown.js';
import type { ForkComparison } from './forks.js';
import { forkCharts, forksMarkdown } from './forks-markdown.js';
import { groupEpisodes, transcriptFile, transcriptPage, type EpisodeGroup } from '../transcript/transcript-pages.js';

export interface ReportOptions {
  /** Directory the report is written to (default: the first run directory). */
  outDir: string;
  /** Seed of the bootstrap and permutation resampling. */
  seed?: number;
  /** Title line; default names the runs. */
  title?: string;
  /** A human naturalness study's summary lines (`--human ANN.jsonl`), shown in their own section. */
  human?: readonly string[];
  /**
   * The same grid run with the MutualFriends leak closed (`--against`): the report (of one leaky run)
   * gets a section saying how much of script and mindreaders mode's advantage the leaked answer explains.
   */
  against?: RunDir;
  /** `--parent`: the forks of a fork run beside their parent episode (a section and effect charts). */
  forks?: ForkComparison;
}

export interface ReportResult {
  markdownFile: string;
  htmlFile: string;
  chartFiles: string[];
  episodes: number;
  rows: GroupRow[];
  gaps: GapRow[];
  charts: Chart[];
  markdown: string;
  /** With `against`: the leak effect, in numbers and sentences. */
  leak?: LeakReport;
  /** Judges per rubric, with their agreement (what `parley report` prints). */
  panels: Panel[];
}

/** `mean [lo, hi]` with the right precision; `—` when there is no value. */
export function fmtSummary(s: Summary, rate = false): string {
  if (s.mean === null) return '—';
  const f = (v: number) => (rate ? v.toFixed(2) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
  return s.lo !== null && s.hi !== null ? `${f(s.mean)} [${f(s.lo)}, ${f(s.hi)}] (${s.n})` : `${f(s.mean)} (${s.n})`;
}

const RATE: ReadonlySet<MetricName> = new Set(['success', 'deal', 'mentioned', 'repetition', 'nonverbalShare', 'firstMention', 'sellerUtility']);

function fmtP(p: number | null): string {
  if (p === null) return '—';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

const RULE_COLUMNS: MetricName[] = ['success', 'turns', 'wordsPerTurn', 'repetition', 'nonverbalShare', 'mentioned', 'firstMention', 'deal', 'sellerUtility'];
const GAP_METRICS: MetricName[] = ['success', 'turns', 'wordsPerTurn', 'firstMention', 'deal', ...DIMENSION_NAMES];

/** Builds the Markdown report (tables, chart links, simulation card) from metrics and aggregates. */
export function reportMarkdown(runs: readonly RunDir[], metrics: readonly EpisodeMetrics[], rows: readonly GroupRow[], gaps: readonly GapRow[], charts: readonly Chart[], title?: string, beside?: string[], panels: readonly Panel[] = [], leak?: readonly string[]): string {
  const lines: string[] = [];
  lines.push(`# ${mdText(title ?? `Parley report: ${runs.map((r) => path.basename(path.resolve(r.dir))).join(', ')}`)}`, '');
  lines.push(
    `${metrics.length} episodes. Cells are \`mean [95% CI] (n)\`: percentile bootstrap over episodes (${BOOTSTRAP_RESAMPLES} resamples, seeded); each episode is one observation, seat metrics averaged over its seats first. ` +
      'Failed episodes are excluded from every mean and counted in **failed**; a metric that does not apply to an episode (no speech, friend never named, open scenario) is missing, never 0. Definitions: docs/metrics.md.',
    '',
  );
  lines.push('## Outcomes and verbosity by mode', '');
  lines.push(`| mode | models | subset | episodes | failed | ${RULE_COLUMNS.map((c) => METRIC_LABELS[c]).join(' | ')} |`);
  lines.push(`|---|---|---|---|---|${RULE_COLUMNS.map(() => '---').join('|')}|`);
  for (const r of rows) {
    lines.push(`| ${mdCell(r.mode)} | ${mdCell(r.models)} | ${mdCell(r.subset)} | ${r.episodes} | ${r.failed} | ${RULE_COLUMNS.map((c) => fmtSummary(r.metrics[c], RATE.has(c))).join(' | ')} |`);
  }
  lines.push('', `success: task success from explicit moves (in \`paper\` runs MutualFriends success is the paper's own rule, the shared friend named: docs/metrics.md); turns: moves per episode; words/turn: words per speech turn; repetition: share of repeated word ${REPETITION_N}-grams; friend named / first mention: MutualFriends, whether and where (0 = first move, 1 = last) the shared friend is first named; deal rate and seller utility: Craigslist.`, '');
  const judged = rows.some((r) => r.judgedSeats + r.judgeErrors > 0);
  const otherRubrics = rubricTablesMarkdown(rows, metrics);
  lines.push('## Judge scores (SOTOPIA-EVAL)', '');
  if (!judged) {
    lines.push(otherRubrics.length ? 'No SOTOPIA-EVAL scores in these runs; the scores of other rubrics follow.' : 'No judge scores in these runs. Run `parley eval DIR --judge openai:gpt-4` to add them.', '');
  } else {
    lines.push(tableJudgesLine(metrics, null), '');
    lines.push(`| mode | models | subset | seats scored | evaluation errors | ${DIMENSION_NAMES.map((d) => METRIC_LABELS[d]).join(' | ')} |`);
    lines.push(`|---|---|---|---|---|${DIMENSION_NAMES.map(() => '---').join('|')}|`);
    for (const r of rows) {
      if (r.judgedSeats + r.judgeErrors === 0) continue;
      lines.push(`| ${mdCell(r.mode)} | ${mdCell(r.models)} | ${mdCell(r.subset)} | ${r.judgedSeats} | ${r.judgeErrors} | ${DIMENSION_NAMES.map((d) => fmtSummary(r.metrics[d])).join(' | ')} |`);
    }
    lines.push('', 'Ranges: believability, knowledge, goal [0, 10]; relationship, financial [-5, 5]; secret, social rules [-10, 0]. Seats with an evaluation error are not scored and are counted apart.', '');
  }
  lines.push(...otherRubrics, ...seatRolesMarkdown(runs, metrics), ...groupTasksMarkdown(runs, metrics), ...gamesMarkdown(runs.flatMap((r) => r.episodes.map((e) => e.record))));
  if (beside) lines.push(...beside);
  lines.push('## Gaps between modes (paired)', '');
  if (!gaps.length) {
    lines.push('No pairs: the gap needs the same (scenario, character pair, repeat) run in both modes.', '');
  } else {
    lines.push(
      'Difference of means over pairs matched by (run, scenario, character pair, repeat), with its 95% bootstrap CI and the two-sided p-value of a paired permutation (sign-flip) test: exact for up to 16 pairs, else 10,000 seeded random flips.',
      '',
      '| run | subset | comparison | metric | pairs | gap [95% CI] | p |',
      '|---|---|---|---|---|---|---|',
    );
    for (const g of gaps) {
      for (const m of GAP_METRICS) {
        const t = g.metrics[m];
        if (!t) continue;
        const ci = t.lo !== null && t.hi !== null ? ` [${t.lo.toFixed(2)}, ${t.hi.toFixed(2)}]` : '';
        lines.push(`| ${mdCell(g.runId)} | ${mdCell(g.subset)} | ${mdCell(g.a)} − ${mdCell(g.b)} | ${METRIC_LABELS[m]} | ${t.n} | ${t.mean!.toFixed(2)}${ci} | ${fmtP(t.p)} |`);
      }
    }
    lines.push('');
  }
  if (leak) lines.push(...leak);
  lines.push(...judgeVariantsMarkdown(runs), ...judgePanelsMarkdown(panels), ...compareVerdictsMarkdown(runs));
  lines.push('## Charts', '');
  for (const c of charts) lines.push(`### ${mdText(c.title)}`, '', mdText(c.caption), '', `![${mdText(c.title)}](charts/${c.file})`, '');
  lines.push(...transcriptsMarkdown(groupEpisodes(runs)));
  lines.push(...cardMarkdown(buildCard(runs)), ...drawsMarkdown(runs), '', ...citeFooter());
  return lines.join('\n');
}

/**
 * One table per rubric other than SOTOPIA-EVAL (by name and hash: an edited rubric file is another
 * rubric), with a column per dimension; each rubric's scores are summarised on their own, never averaged
 * with another rubric's.
 */
export function rubricTablesMarkdown(rows: readonly GroupRow[], metrics: readonly EpisodeMetrics[] = []): string[] {
  const keys = new Map<string, RubricGroup['rubric']>();
  for (const r of rows) for (const g of r.rubrics) keys.set(`${g.rubric.name}@${g.rubric.hash}`, g.rubric);
  const lines: string[] = [];
  for (const [key, rubric] of keys) {
    const dims = rubric.dimensions;
    lines.push(`## Judge scores (rubric ${mdText(rubric.name)})`, '');
    lines.push(`${tableJudgesLine(metrics, rubric)} Rubric \`${rubric.hash.slice(0, 12)}\` is the sha256 of its text. Cells as above, per episode the mean over its scored seats.`, '');
    lines.push(`| mode | models | subset | seats scored | evaluation errors | ${dims.map((d) => mdCell(d.label ?? d.name)).join(' | ')} |`);
    lines.push(`|---|---|---|---|---|${dims.map(() => '---').join('|')}|`);
    for (const r of rows) {
      const g = r.rubrics.find((x) => `${x.rubric.name}@${x.rubric.hash}` === key);
      if (!g) continue;
      lines.push(`| ${mdCell(r.mode)} | ${mdCell(r.models)} | ${mdCell(r.subset)} | ${g.judgedSeats} | ${g.judgeErrors} | ${dims.map((d) => (g.scores[d.name] ? fmtSummary(g.scores[d.name]!) : '—')).join(' | ')} |`);
    }
    lines.push('', `Ranges: ${dims.map((d) => `${mdText(d.name)} [${d.min}, ${d.max}]`).join('; ')}.`, '');
  }
  return lines;
}

/** For a run whose protocol is scored beside the paper, the section beside the paper's published numbers; a broken data file is reported in the section. */
function paperSection(runs: readonly RunDir[], rows: readonly GroupRow[]): string[] | undefined {
  if (!runs.some((r) => runProtocol(r).scoring.besideThePaper)) return undefined;
  try {
    const published = loadPublished();
    return besideMarkdown(besideThePaper(rows, published), published);
  } catch (err) {
    return ['## Beside the paper', '', `The paper's numbers could not be read: ${(err as Error).message}`, ''];
  }
}

/** The transcripts section: one row per (run, scenario, pair, repeat), a link per mode to its transcript page. */
function transcriptsMarkdown(groups: readonly EpisodeGroup[]): string[] {
  const modes = [...new Set(groups.flatMap((g) => g.transcripts.map((t) => t.mode)))];
  const order = ['script', 'agents', 'mindreaders'];
  modes.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  const lines = ['## Transcripts', '', 'Every episode, by scenario and character pair; each link opens its transcript next to the other modes of the same scenario, pair and repeat.', ''];
  lines.push(`| run | scenario | pair | repeat | ${modes.map(mdCell).join(' | ')} |`, `|---|---|---|---|${modes.map(() => '---').join('|')}|`);
  for (const g of groups) {
    const cells = modes.map((m) =>
      g.transcripts
        .filter((t) => t.mode === m)
        .map((t) => `[${t.status === 'ok' ? `${t.lines.length} turns` : 'failed'}](transcripts/${transcriptFile(t.episodeId)})`)
        .join(' ') || '—',
    );
    lines.push(`| ${mdCell(path.basename(path.resolve(g.run.dir)))} | ${mdCell(g.transcripts[0]!.scenario)} | ${mdCell(g.pairId)} | ${g.repeat} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

const CSS = `body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:12px;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}
th{background:#f3f3f3}figure{margin:1em 0}figcaption{font-size:12px;color:#555}code{background:#f5f5f5;padding:0 3px}`;

/**
 * Computes metrics, aggregates and charts for one or more run directories and writes `report.md`,
 * `report.html` (charts inline) and `charts/*.svg` into `outDir`, each through a temp file and a rename.
 * Every SVG is checked for well-formedness before anything is written.
 */
export async function writeReport(runs: readonly RunDir[], opts: ReportOptions): Promise<ReportResult> {
  const seed = opts.seed ?? 1;
  const metrics = runs.flatMap(runMetrics);
  const rows = aggregate(metrics, seed);
  const gaps = [...pairedGaps(metrics, 'script', 'agents', seed), ...pairedGaps(metrics, 'mindreaders', 'agents', seed)];
  const charts = [...(opts.forks ? forkCharts(opts.forks) : []), ...buildCharts(rows, metrics)];
  // Groups: the goal of each seat role (seat-roles.ts); absent for pair-only runs.
  const roleChart = seatRoleChart(runs, metrics);
  if (roleChart) charts.push(roleChart);
  for (const c of charts) {
    const err = xmlWellFormedError(c.svg);
    if (err) throw new Error(`chart ${c.file} is not well-formed XML: ${err}`);
  }
  const panels = judgePanels(runs, seed);
  if (opts.against && runs.length !== 1) throw new Error('a leak comparison (against) reports on exactly one leaky run');
  const leak = opts.against ? leakReport(runs[0]!, opts.against, seed) : undefined;
  const beside = [...(opts.forks ? forksMarkdown(opts.forks) : []), ...(paperSection(runs, rows) ?? [])];
  const markdown = reportMarkdown(runs, metrics, rows, gaps, charts, opts.title, beside.length ? beside : undefined, panels, leak?.markdown) + humanSection(opts.human);
  const inlineSvg = new Map(charts.map((c) => [`charts/${c.file}`, c.svg]));
  const title = markdown.split('\n')[0]!.replace(/^#\s*/, '').replace(/\\(.)/g, '$1');
  const html = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>${reportCsp()}<title>${esc(title)}</title><style>${CSS}</style></head><body>\n${markdownToHtml(markdown, inlineSvg)}\n</body></html>\n`;
  await mkdir(path.join(opts.outDir, 'charts'), { recursive: true });
  const chartFiles: string[] = [];
  for (const c of charts) {
    const file = path.join(opts.outDir, 'charts', c.file);
    await writeFileAtomic(file, `<?xml version="1.0" encoding="UTF-8"?>\n${c.svg}\n`);
    chartFiles.push(file);
  }
  const markdownFile = path.join(opts.outDir, 'report.md');
  const htmlFile = path.join(opts.outDir, 'report.html');
  await writeFileAtomic(markdownFile, markdown);
  await writeFileAtomic(htmlFile, html);
  await mkdir(path.join(opts.outDir, 'transcripts'), { recursive: true });
  for (const g of groupEpisodes(runs)) {
    for (const t of g.transcripts) await writeFileAtomic(path.join(opts.outDir, 'transcripts', transcriptFile(t.episodeId)), transcriptPage(g, t.episodeId));
  }
  return { markdownFile, htmlFile, chartFiles, episodes: metrics.length, rows, gaps, charts, markdown, panels, ...(leak ? { leak } : {}) };
}

/** The human study's section (appendix E): the summary lines of `compare --human`, as a list. */
function humanSection(lines: readonly string[] | undefined): string {
  if (!lines?.length) return '';
  return `\n## Human naturalness study\n\n${lines.map((l) => `- ${mdText(l)}`).join('\n')}\n`;
}
