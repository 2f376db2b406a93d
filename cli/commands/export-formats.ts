/**
 * Every format `parley export` writes: the run formats (export.ts), the fine-tuning ones (export-chat.ts).
 * A module of its own so that `parley --help` lists them without loading the exporters.
 */
export const EXPORT_FORMATS = ['sotopia', 'csv', 'parquet', 'rewards', 'openai-chat', 'mistral-chat'] as const;

/** `parley --help`'s line for export, from the formats it accepts. */
export const summaryLine = () => `export a run (${EXPORT_FORMATS.join(' | ')})`;
