import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { arrayElementLines, parseJsonDocument, readText } from './read-json.js';

/** The records of a cocoa scenario file (a JSON list) with the line each one starts on. */
export async function readCocoaList(file: string): Promise<{ raw: unknown; line: number; index: number }[]> {
  const text = await readText(file);
  const json = parseJsonDocument(text, file);
  if (!Array.isArray(json)) {
    throw new ScenarioError(ScenarioErrorCode.InvalidField, 'expected a JSON list of scenarios', { file, line: 1, field: '(root)' });
  }
  const lines = arrayElementLines(text);
  return json.map((raw, index) => ({ raw, line: lines[index] ?? 1, index }));
}
