import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import { normaliseAnnotator } from './annotator-name.js';

/**
 * A study's server-side secrets, kept next to the answers file (`ANN.jsonl.secrets.json`, mode 0600) so
 * a resumed study keeps the same A/B order and the same links: the salt of the order and one token per
 * annotator. The organiser hands each annotator their printed link (`…/#token=T`); the token, not the
 * name typed in a box, says who answered.
 */
const Secrets = z.object({ salt: z.string().regex(/^[0-9a-f]{64}$/), tokens: z.record(z.string(), z.string().regex(/^[0-9a-f]{32}$/)) });
export type StudySecrets = z.infer<typeof Secrets>;

/** The secrets file of an answers file. */
export function secretsFile(out: string): string {
  return `${out}.secrets.json`;
}

/**
 * Reads the study's secrets (or creates them) and gives every name in `annotators` a token, keeping the
 * tokens already issued. Names are normalised (annotator-name.ts); an empty one is an error.
 */
export function loadSecrets(out: string, annotators: readonly string[]): StudySecrets {
  const file = secretsFile(out);
  const secrets: StudySecrets = existsSync(file) ? Secrets.parse(JSON.parse(readFileSync(file, 'utf8'))) : { salt: randomBytes(32).toString('hex'), tokens: {} };
  let changed = !existsSync(file);
  for (const raw of annotators) {
    const name = normaliseAnnotator(raw);
    if (!name || name.length > 100) throw new Error(`annotator name '${raw}' is empty or longer than 100 characters once normalised`);
    if (!secrets.tokens[name]) {
      secrets.tokens[name] = randomBytes(16).toString('hex');
      changed = true;
    }
  }
  if (changed) writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

/** The annotator a token belongs to, compared in constant time; null for an unknown token. */
export function annotatorOf(secrets: StudySecrets, token: string): string | null {
  const t = Buffer.from(token);
  for (const [name, known] of Object.entries(secrets.tokens)) {
    const k = Buffer.from(known);
    if (k.length === t.length && timingSafeEqual(k, t)) return name;
  }
  return null;
}
