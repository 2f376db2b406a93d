import { readFileSync } from 'node:fs';
import { readTextFile } from '../../disk/read-text.js';
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { MODES, policyKind } from '../../protocol/index.js';
import { checkPolicySpec } from '../../llm/spec.js';
import { parseYamlWith } from '../../text/yaml.js';

/**
 * A study file (`parley study STUDY.yaml`): what an organiser decides about a study with recruited
 * participants, validated with zod and reported with the file's line (text/yaml.ts, as rubric files).
 * Every key takes effect or is refused; keys nobody reads are refused as unknown.
 */

/** A study file too large to be one is refused before parsing. */
const MAX_FILE_BYTES = 256 * 1024;
/** A consent text longer than this is not one a participant reads (and every page load carries it). */
const MAX_CONSENT_BYTES = 64 * 1024;

const Id = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'expected a short id: a-z, 0-9 and _, starting with a letter');

/** One exit-survey question: a choice among a few answers (Likert items list their points). */
const SurveyItem = z.strictObject({
  id: Id,
  question: z.string().min(1).max(500),
  choices: z.array(z.string().min(1).max(100)).min(2).max(11),
  /** An attention check: the one right choice; any other answer is counted as a failure. */
  attention: z.string().max(100).optional(),
}).refine((s) => s.attention === undefined || s.choices.includes(s.attention), { message: 'attention must be one of the choices', path: ['attention'] })
  .refine((s) => new Set(s.choices).size === s.choices.length, { message: 'choices must differ', path: ['choices'] });

const Completion = z.union([
  z.strictObject({ code: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a completion code is 1-64 letters, digits, _ or -') }),
  z.strictObject({ redirect: z.url({ protocol: /^https?$/, error: 'a redirect must be an http(s) URL' }).max(2000) }),
]);

const PolicyField = z.string().max(200).superRefine((spec, ctx) => {
  if (spec === 'none') return;
  const checked = checkPolicySpec(spec);
  if (!checked.ok) return void ctx.addIssue({ code: 'custom', message: checked.message });
  if (policyKind(spec) === 'human') ctx.addIssue({ code: 'custom', message: 'partner is who fills a seat no person took: a bot or a model, or none' });
});

export const StudyFile = z.strictObject({
  /** Seat play; naturalness annotation (`annotate`) is refused for now, with the command that serves it. */
  kind: z.enum(['seats', 'annotate']),
  scenarios: z.string().min(1).max(1000),
  subset: z.string().max(200).optional(),
  /** Modes a pair may play (cycled pair by pair); script mode has no seat for a person. */
  modes: z.array(z.enum(MODES)).min(1).refine((m) => !m.includes('script'), { message: 'script mode has no seat a person can take (choose agents or mindreaders)' }),
  /** The policy of a seat no person took within waitSeconds; `none`: the participant waits on. */
  partner: PolicyField,
  waitSeconds: z.number().positive().max(3600),
  consent: z.strictObject({ file: z.string().min(1).max(1000), version: z.union([z.string().min(1).max(40), z.number()]) }),
  /** The URL parameter carrying the participant's id (Prolific: PROLIFIC_PID). */
  participantParam: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'expected a URL parameter name (letters, digits, _)'),
  sessionsPerParticipant: z.number().int().min(1).max(100).default(1),
  survey: z.array(SurveyItem).max(30).default([]).refine((s) => new Set(s.map((i) => i.id)).size === s.length, { message: 'survey ids must differ' }),
  completion: Completion,
  /** The turn limit of each episode (default 20, as runs). */
  maxTurns: z.number().int().min(1).max(200).default(20),
  /** How long a person has for a move (default 300 s). */
  turnSeconds: z.number().positive().max(3600).default(300),
  /** How long a paired participant has to open their seat before the episode is given up (default 120 s). */
  joinSeconds: z.number().positive().max(3600).default(120),
  /** How long a participant who closed the tab mid-episode may come back before the seat is handled (default 30 s). */
  graceSeconds: z.number().positive().max(600).default(30),
  /** What happens to a seat whose person did not come back: it leaves, and the episode ends (recorded). */
  onDisconnect: z.enum(['leave']).default('leave'),
  /** Requests to the study's API per address and minute (behind a proxy: see --trust-proxy). */
  requestsPerMinute: z.number().int().min(10).max(100_000).default(1200),
});
export type StudyFile = z.output<typeof StudyFile>;

/** A study as the server runs it: the file's settings, the consent text read, where the file is. */
export interface Study extends StudyFile {
  file: string;
  consentText: string;
}

export type StudyLoad = { ok: true; study: Study } | { ok: false; message: string };

/** Reads and validates a study file; every refusal is one line naming the file and line. */
export function loadStudyFile(path: string): StudyLoad {
  const read = readTextFile(path, 'code');
  return read.ok ? parseStudyFile(read.text, path) : read;
}

/** Validates study YAML text; `file` names it in messages and anchors the consent file's path. */
export function parseStudyFile(text: string, file: string): StudyLoad {
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) return { ok: false, message: `${file}: larger than ${MAX_FILE_BYTES} bytes, not a study file` };
  const parsed = parseYamlWith(StudyFile, text, file);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const s = parsed.data;
  const at = (key: string) => `${file}${lineOf(text, key)}`;
  if (s.kind === 'annotate') return { ok: false, message: `${at('kind')}: kind: annotate is not served by parley study yet; run the naturalness study with parley annotate RUN_A RUN_B` };
  const consentPath = resolve(dirname(resolve(file)), s.consent.file);
  let consentText: string;
  try {
    consentText = readFileSync(consentPath, 'utf8');
  } catch (err) {
    return { ok: false, message: `${at('consent')}: consent.file: cannot read ${consentPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (!consentText.trim()) return { ok: false, message: `${at('consent')}: consent.file: ${consentPath} is empty` };
  if (Buffer.byteLength(consentText) > MAX_CONSENT_BYTES) return { ok: false, message: `${at('consent')}: consent.file: larger than ${MAX_CONSENT_BYTES} bytes` };
  return { ok: true, study: { ...s, file: resolve(file), consentText } };
}

/** `:LINE` of a top-level key (for checks made after the schema), or '' when not found. */
function lineOf(text: string, key: string): string {
  const n = text.split('\n').findIndex((l) => l.startsWith(`${key}:`));
  return n >= 0 ? `:${n + 1}` : '';
}

/** The consent version as recorded (numbers and strings alike). */
export const consentVersion = (s: Pick<Study, 'consent'>): string => String(s.consent.version);
