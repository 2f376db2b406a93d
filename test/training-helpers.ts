import { readFileSync } from 'node:fs';

/** The general CLI runner lives with the LLM run helpers; re-exported for the training tests. */
export { parleyCli, parleyCliInProcess } from './llm-run-helpers.js';

/** One line of an export's `*.index.jsonl`: which example each training line is. */
export interface IndexLine {
  line: number;
  episodeId: string;
  scenarioId: string;
  mode: string;
  seat: string;
  turn: number;
}

export const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);

export type ChatLine = { messages: Array<{ role: string; content: string }> };
