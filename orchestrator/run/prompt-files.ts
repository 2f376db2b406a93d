import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packagePath } from '../../disk/package-root.js';
import type { PolicyConfig } from '../../protocol/index.js';

/** The built-in prompt templates of the agent processes (read as files; nothing is imported). */
const DEFAULT_PROMPT_DIR = packagePath('agent-node', 'prompts');

/**
 * Provenance of the prompt templates a run's LLM policies use (DESIGN invariant 6): per template
 * directory, each file's sha256. Bot-only runs use no template and record none.
 */
export function promptTemplates(policies: readonly PolicyConfig[]): Array<{ dir: string; files: Record<string, string> }> {
  const llm = policies.filter((p) => /^(openai|mistral|replay):/.test(p.spec));
  const dirs = [...new Set(llm.map((p) => resolve(p.promptDir ?? DEFAULT_PROMPT_DIR)))];
  return dirs.map((dir) => {
    const files: Record<string, string> = {};
    if (existsSync(dir) && statSync(dir).isDirectory()) {
      for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        if (statSync(path).isFile()) files[name] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
    return { dir, files };
  });
}
