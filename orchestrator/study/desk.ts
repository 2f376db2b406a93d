import * as z from 'zod';
import type { ParticipantView } from '../../protocol/study.js';
import { Lobby } from './lobby.js';
import { PID, type Participant, type ParticipantStore } from './participants.js';
import { consentVersion, type Study } from './study-file.js';

/**
 * What a participant's page can do, whatever carries it (study-api.ts is the HTTP edge): consent or
 * decline, wait (live count, seconds left before an AI partner), play the seat handed out, answer the
 * exit survey, read the completion code. Every body is validated here; a participant only ever sees
 * their own state.
 */

const ConsentBody = z.strictObject({ pid: PID, agree: z.boolean() });
const SurveyBody = z.strictObject({ answers: z.record(z.string().max(40), z.string().max(100)) });

export type { ParticipantView };

export type DeskResult<T> = { ok: true; value: T } | { ok: false; status: number; error: string };

/** How long a page's long poll is held before it is answered unchanged. */
export const POLL_MS = 15_000;
/** A waiting participant whose page has not asked for this long is away (tab closed). */
export const PRESENCE_MS = 2 * POLL_MS;

export class StudyDesk {
  version = 0;
  private readonly waiters = new Set<() => void>();
  /** Seat tokens of participants whose episode is in flight (memory only: a restart ends those episodes). */
  readonly seats = new Map<string, string>();
  readonly lobby: Lobby;

  constructor(
    readonly study: Study,
    readonly store: ParticipantStore,
    private readonly now: () => number,
    startEpisode: (people: Participant[]) => void,
    /** After a participant's record changed (consent, survey): the exports are rewritten. */
    private readonly saved: () => void = () => {},
  ) {
    this.lobby = new Lobby({
      waitMs: study.partner === 'none' ? null : study.waitSeconds * 1000,
      presenceMs: PRESENCE_MS,
      now,
      pair: (ids) => startEpisode(ids.map((id) => store.byId.get(id)!)),
      fallback: (id) => startEpisode([store.byId.get(id)!]),
    });
    // A restart: whoever was waiting or playing waits again (an episode in flight ended with the old server).
    for (const p of store.byId.values()) if (p.state === 'waiting' || p.state === 'playing') p.state = 'waiting';
  }

  /** What every page may read before consent: the consent text, the id parameter, the survey (without attention answers). */
  info(): object {
    const s = this.study;
    return {
      participantParam: s.participantParam,
      consent: { text: s.consentText, version: consentVersion(s) },
      survey: s.survey.map(({ id, question, choices }) => ({ id, question, choices })),
    };
  }

  /** Consent or refusal. A refusal keeps nothing but one more in the count; a known PID is never enrolled twice. */
  consent(body: unknown): DeskResult<{ token?: string }> {
    const parsed = ConsentBody.safeParse(body);
    if (!parsed.success) return { ok: false, status: 400, error: `expected {pid, agree}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
    const { pid, agree } = parsed.data;
    if (!agree) {
      this.store.refused();
      this.changed();
      return { ok: true, value: {} };
    }
    if (this.store.isWithdrawn(pid)) return { ok: false, status: 403, error: 'this id has withdrawn from the study' };
    if (this.store.hasPid(pid)) return { ok: false, status: 409, error: 'this id already has a session in this study; continue it in the browser where you started it' };
    const { participant, token } = this.store.enrol(pid, consentVersion(this.study), new Date(this.now()));
    this.lobby.enter(participant.id);
    this.saved();
    this.changed();
    return { ok: true, value: { token } };
  }

  view(p: Participant): ParticipantView {
    const view: ParticipantView = { version: this.version, state: p.state };
    if (p.state === 'waiting') view.waiting = { count: this.lobby.count, secondsLeft: this.lobby.secondsLeft(p.id) };
    const seat = this.seats.get(p.id);
    if (p.state === 'playing' && seat) view.seat = seat;
    if (p.state === 'done') {
      view.completion = this.study.completion;
      view.canPlayAgain = p.sessions < this.study.sessionsPerParticipant;
    }
    return view;
  }

  /** The view once the study changed after `since` (or after POLL_MS unchanged); marks the participant present. */
  async poll(p: Participant, since: number, closed: Promise<void>): Promise<ParticipantView> {
    // After a restart, waiting participants rejoin the room when their page asks (they are here now).
    if (p.state === 'waiting' && !this.lobby.isWaiting(p.id)) this.lobby.enter(p.id);
    this.lobby.touch(p.id);
    if (since >= this.version) {
      let wake = () => {};
      const woken = new Promise<void>((r) => (wake = r));
      this.waiters.add(wake);
      // A waiting participant's countdown is live: their poll is answered every second.
      const timer = setTimeout(wake, p.state === 'waiting' && this.lobby.secondsLeft(p.id) !== null ? 1000 : POLL_MS);
      await Promise.race([woken, closed]);
      clearTimeout(timer);
      this.waiters.delete(wake);
      this.lobby.touch(p.id);
    }
    return this.view(p);
  }

  /** Open long polls (the API refuses more than its limit). */
  get polls(): number {
    return this.waiters.size;
  }

  /** The exit survey: every item answered with one of its choices, once per session. */
  survey(p: Participant, body: unknown): DeskResult<ParticipantView> {
    if (p.state !== 'survey') return { ok: false, status: 409, error: `the survey comes after your conversation (you are ${p.state})` };
    const parsed = SurveyBody.safeParse(body);
    if (!parsed.success) return { ok: false, status: 400, error: 'expected {answers: {id: choice}}' };
    const answers = parsed.data.answers;
    for (const item of this.study.survey) {
      if (!Object.hasOwn(answers, item.id) || !item.choices.includes(answers[item.id]!)) return { ok: false, status: 400, error: `answer '${item.id}' with one of its choices` };
    }
    const known = new Set(this.study.survey.map((i) => i.id));
    if (Object.keys(answers).some((k) => !known.has(k))) return { ok: false, status: 400, error: 'an answer to a question this survey does not ask' };
    const kept = Object.fromEntries(this.study.survey.map((i) => [i.id, answers[i.id]!]));
    p.survey.push({ at: new Date(this.now()).toISOString(), answers: kept });
    p.attentionFailures += this.study.survey.filter((i) => i.attention !== undefined && kept[i.id] !== i.attention).length;
    p.state = 'done';
    p.completedAt = new Date(this.now()).toISOString();
    this.store.save();
    this.saved();
    this.changed();
    return { ok: true, value: this.view(p) };
  }

  /** Another session, when the study allows more than one per participant. */
  again(p: Participant): DeskResult<ParticipantView> {
    if (p.state !== 'done' || p.sessions >= this.study.sessionsPerParticipant) return { ok: false, status: 409, error: 'no further session is open to you in this study' };
    p.sessions++;
    p.state = 'waiting';
    this.store.save();
    this.lobby.enter(p.id);
    this.changed();
    return { ok: true, value: this.view(p) };
  }

  /** Something any page shows changed (a pairing, a count): every long poll is answered. */
  changed(): void {
    this.version++;
    for (const w of [...this.waiters]) w();
  }
}
