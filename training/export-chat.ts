import type { PriceTable } from '../llm/index.js';
import { buildExamples, dedupe, type BuildOptions, type TrainingExample } from './examples.js';
import { exampleLine, validateExamples, type ChatFormat, type FormatIssue } from './formats.js';
import { selectUnits, type Selection, type SelectionResult } from './select.js';
import type { SourceEpisode } from './source.js';
import { splitByScenario } from './split.js';
import { summarize, type ExportSummary } from './summary.js';
import type { TokenCounter } from './tokens.js';

export interface ChatExportOptions extends BuildOptions {
  format: ChatFormat;
  selection: Selection;
  /** Drop examples whose messages repeat an earlier example's (default true): deterministic bots repeat themselves. */
  dedupe?: boolean;
  /** Train/validation split by scenario: the training fraction and the seed. */
  split?: { fraction: number; seed: number };
  /** `provider:model` to train and the epochs, for the cost estimate. */
  base: string;
  epochs: number;
  prices?: PriceTable;
  /** Token counter for the base model (`tokenCounterFor`); the estimate when absent. */
  tokens?: TokenCounter;
}

/** One file to write: the JSONL lines and, beside it, which example each line is. */
export interface ExportFile {
  role: 'all' | 'train' | 'validation';
  examples: TrainingExample[];
  text: string;
  index: string;
}

export type ChatExportResult =
  | { ok: true; files: ExportFile[]; selection: SelectionResult; duplicates: number; summary: ExportSummary; issues: FormatIssue[] }
  | { ok: false; message: string; issues?: FormatIssue[] };

function file(role: ExportFile['role'], examples: TrainingExample[]): ExportFile {
  return {
    role,
    examples,
    text: examples.map((e) => exampleLine(e) + '\n').join(''),
    index: examples.map((e, i) => JSON.stringify({ line: i + 1, run: e.runDir, episodeId: e.episodeId, scenarioId: e.scenarioId, mode: e.mode, seat: e.seat, turn: e.turn, model: e.model }) + '\n').join(''),
  };
}

/**
 * The whole `parley export --format openai-chat|mistral-chat` pipeline over loaded episodes: select
 * (counting exclusions), render examples, drop duplicates, split by scenario, validate against the
 * provider's format (any error stops the export, naming the example), summarise.
 */
export function exportChat(sources: readonly SourceEpisode[], opts: ChatExportOptions): ChatExportResult {
  const selection = selectUnits(sources, opts.selection);
  const all: TrainingExample[] = [];
  for (const unit of selection.units) {
    const built = buildExamples(unit, opts);
    if (!built.ok) return { ok: false, message: built.message };
    all.push(...built.examples);
  }
  const { examples, duplicates } = opts.dedupe === false ? { examples: all, duplicates: 0 } : dedupe(all);
  const files: ExportFile[] = [];
  if (opts.split) {
    const s = splitByScenario(examples, opts.split.fraction, opts.split.seed);
    files.push(file('train', s.train), file('validation', s.validation));
  } else {
    files.push(file('all', examples));
  }
  const issues: FormatIssue[] = [];
  for (const f of files) {
    const found = validateExamples(opts.format, f.examples, { ...(f.role === 'validation' ? { minExamples: 1 } : {}), ...(opts.tokens ? { tokens: opts.tokens } : {}) });
    issues.push(...found.map((i) => ({ ...i, example: `${f.role === 'all' ? '' : `${f.role} `}${i.example}` })));
  }
  if (issues.some((i) => i.severity === 'error')) return { ok: false, message: `${opts.format}: examples break the provider's format rules`, issues };
  // Counts over everything written; the cost over what is trained on (validation files are not billed as training).
  const summary = summarize(examples, opts.base, opts.epochs, opts.prices, opts.tokens);
  summary.cost = summarize(files[0]!.examples, opts.base, opts.epochs, opts.prices, opts.tokens).cost;
  return { ok: true, files, selection, duplicates, summary, issues };
}
