import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { writeFileAtomicSync } from '../../disk/atomic-write.js';

/**
 * The participants of a study, kept in the study directory (`study-participants.json`, rewritten whole
 * and atomically on every change, so a stopped server resumes them). Nothing of a person is kept before
 * they accept the consent text: a refusal only adds one to `study-refusals.json`. A participant is known
 * to the server by a random token (only its hash is kept) the page holds; their platform id (PID) only
 * says who is paid, and a PID already known is never handed a token again (a second session is refused).
 */

export const PARTICIPANTS_FILE = 'study-participants.json';
export const REFUSALS_FILE = 'study-refusals.json';
export const SECRETS_FILE = 'study-secrets.json';

/** A participant id as platforms send it (Prolific's are 24 hex digits); anything else is refused at the edge. */
export const PID = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const ParticipantState = z.enum(['waiting', 'playing', 'survey', 'done']);
export type ParticipantState = z.infer<typeof ParticipantState>;

/** One episode a participant played, and who their partner was. */
export const ParticipantEpisode = z.object({
  episodeId: z.string(),
  seat: z.string(),
  /** `person`: paired with another participant; `ai-fallback`: nobody came within waitSeconds. */
  partner: z.enum(['person', 'ai-fallback']),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  termination: z.string().optional(),
  /** The participant's seat was lost (tab closed past the grace): what the study did with it. */
  disconnected: z.enum(['leave']).optional(),
});
export type ParticipantEpisode = z.infer<typeof ParticipantEpisode>;

export const Participant = z.object({
  id: z.string(),
  pid: PID,
  tokenHash: z.string(),
  consent: z.object({ version: z.string(), at: z.string() }),
  state: ParticipantState,
  sessions: z.number().int().nonnegative(),
  episodes: z.array(ParticipantEpisode),
  survey: z.array(z.object({ at: z.string(), answers: z.record(z.string(), z.string()) })),
  attentionFailures: z.number().int().nonnegative(),
  completedAt: z.string().optional(),
});
export type Participant = z.infer<typeof Participant>;

const Secrets = z.object({ salt: z.string().regex(/^[0-9a-f]{64}$/), withdrawn: z.array(z.string()) });

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The participants and the study's counts, written through to the study directory. */
export class ParticipantStore {
  readonly byId = new Map<string, Participant>();
  private readonly byPid = new Map<string, Participant>();
  private readonly byToken = new Map<string, Participant>();
  refusals = 0;
  private readonly secrets: z.infer<typeof Secrets>;

  constructor(private readonly dir: string) {
    const file = join(dir, PARTICIPANTS_FILE);
    if (existsSync(file)) {
      for (const p of z.array(Participant).parse(JSON.parse(readFileSync(file, 'utf8')))) this.index(p);
    }
    const refusals = join(dir, REFUSALS_FILE);
    if (existsSync(refusals)) this.refusals = z.object({ refusals: z.number().int().nonnegative() }).parse(JSON.parse(readFileSync(refusals, 'utf8'))).refusals;
    const secrets = join(dir, SECRETS_FILE);
    this.secrets = existsSync(secrets) ? Secrets.parse(JSON.parse(readFileSync(secrets, 'utf8'))) : { salt: randomBytes(32).toString('hex'), withdrawn: [] };
    if (!existsSync(secrets)) this.saveSecrets();
  }

  private index(p: Participant): void {
    this.byId.set(p.id, p);
    this.byPid.set(p.pid, p);
    this.byToken.set(p.tokenHash, p);
  }

  /** The participant a page's token belongs to (looked up by its hash), or null. */
  byTokenOf(token: string): Participant | null {
    return this.byToken.get(hashToken(token)) ?? null;
  }

  hasPid(pid: string): boolean {
    return this.byPid.has(pid);
  }

  /** A keyed hash of a PID: what a withdrawal keeps, so the same id cannot enrol again, without keeping the id. */
  pidMark(pid: string): string {
    return createHmac('sha256', this.secrets.salt).update(pid).digest('hex');
  }

  isWithdrawn(pid: string): boolean {
    return this.secrets.withdrawn.includes(this.pidMark(pid));
  }

  /** Consent given: the participant exists from now on, with a fresh token (returned once, kept as a hash). */
  enrol(pid: string, consentVersion: string, now: Date): { participant: Participant; token: string } {
    const token = randomBytes(16).toString('hex');
    const participant: Participant = {
      id: `p${randomBytes(6).toString('hex')}`,
      pid,
      tokenHash: hashToken(token),
      consent: { version: consentVersion, at: now.toISOString() },
      state: 'waiting',
      sessions: 1,
      episodes: [],
      survey: [],
      attentionFailures: 0,
    };
    this.index(participant);
    this.save();
    return { participant, token };
  }

  refused(): void {
    this.refusals++;
    writeFileAtomicSync(join(this.dir, REFUSALS_FILE), `${JSON.stringify({ refusals: this.refusals })}\n`);
  }

  /** Removes a participant for good (withdrawal); their PID is remembered only as a keyed hash. */
  remove(p: Participant): void {
    this.byId.delete(p.id);
    this.byPid.delete(p.pid);
    this.byToken.delete(p.tokenHash);
    this.secrets.withdrawn.push(this.pidMark(p.pid));
    this.saveSecrets();
    this.save();
  }

  /** How many participants withdrew. */
  get withdrawals(): number {
    return this.secrets.withdrawn.length;
  }

  findByPid(pid: string): Participant | null {
    return this.byPid.get(pid) ?? null;
  }

  /** Writes every participant (after any change). */
  save(): void {
    writeFileAtomicSync(join(this.dir, PARTICIPANTS_FILE), `${JSON.stringify([...this.byId.values()], null, 1)}\n`);
  }

  private saveSecrets(): void {
    const file = join(this.dir, SECRETS_FILE);
    writeFileAtomicSync(file, `${JSON.stringify(this.secrets)}\n`);
    // The salt keeps withdrawn ids unguessable from their marks: the organiser's eyes only.
    chmodSync(file, 0o600);
  }
}
