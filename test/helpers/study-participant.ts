import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { FRAME_EVENT, PROTOCOL_VERSION, SOCKET_IO_PATH } from '../../protocol/index.js';

/** A participant's state as the study API returns it (orchestrator/study/desk.ts ParticipantView). */
export interface StudyView {
  version: number;
  state: 'waiting' | 'playing' | 'survey' | 'done';
  waiting?: { count: number; secondsLeft: number | null };
  seat?: string;
  completion?: { code?: string; redirect?: string };
  canPlayAgain?: boolean;
}

/** The minimal study file of issue 41, with a consent file next to it; returns the study file's path. */
export function writeMinimalStudy(dir: string, overrides: Record<string, string> = {}): string {
  writeFileSync(join(dir, 'consent.md'), 'You will chat with another participant or an AI for a few minutes.\nYour answers are kept for research.\n');
  const keys: Record<string, string> = {
    kind: 'seats',
    scenarios: 'builtin',
    subset: 'mutual_friends',
    modes: '[agents]',
    partner: 'bot',
    waitSeconds: '60',
    consent: '{file: consent.md, version: 1}',
    participantParam: 'PROLIFIC_PID',
    sessionsPerParticipant: '1',
    ...overrides,
  };
  const lines = Object.entries(keys).map(([k, v]) => `${k}: ${v}`);
  lines.push('survey:', '  - {id: partner_was, question: "Was your partner a person or an AI?", choices: [person, AI]}', 'completion: {code: C1A2B3}');
  const file = join(dir, 'STUDY.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * One simulated participant through the study's HTTP API and socket.io, as the pages do it: consent,
 * long-poll the state, play the seat (leave at the first turn asked, or speak first), answer the survey.
 */
export class StudyParticipant {
  token = '';
  version = -1;
  private markConsented = () => {};
  /** Resolves once this participant has their token (a hostile test waits on it to forge their id). */
  readonly consented = new Promise<void>((r) => (this.markConsented = r));

  /** `headers`: sent with every request (a test behind `--trust-proxy` gives each participant an X-Forwarded-For). */
  constructor(readonly base: string, readonly pid: string, readonly headers: Record<string, string> = {}) {}

  async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...this.headers, ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...headers }, body: JSON.stringify(body) });
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.base}${path}`, { headers: { ...this.headers, ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...headers } });
  }

  async consent(agree = true): Promise<Response> {
    const res = await this.post('/api/study/consent', { pid: this.pid, agree });
    if (res.ok && agree) {
      this.token = ((await res.clone().json()) as { token: string }).token;
      this.markConsented();
    }
    return res;
  }

  async state(): Promise<StudyView> {
    const res = await this.get(`/api/study/state?since=${this.version}`);
    if (!res.ok) throw new Error(`state: HTTP ${res.status} ${await res.text()}`);
    const view = (await res.json()) as StudyView;
    this.version = view.version;
    return view;
  }

  /** Every view this participant was given (a test checks none carries another's seat). */
  readonly views: StudyView[] = [];

  /** Long-polls until `pred` holds (the server answers on every change, or every 15 s unchanged). */
  async until(pred: (v: StudyView) => boolean): Promise<StudyView> {
    for (;;) {
      const v = await this.state();
      this.views.push(v);
      if (pred(v)) return v;
    }
  }

  /** Joins the seat and plays: `leave` at the first turn asked (or speaks `say` first). Resolves with the end reason. */
  playSeat(seat: string, opts: { say?: string } = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      // Reconnecting as the seat page does: a connection dropped before its join (the server makes room
      // among connections that have not joined yet) joins again; one dropped after rejoins with the resume secret.
      const socket = io(this.base, { path: SOCKET_IO_PATH, transports: ['websocket'], reconnectionAttempts: 10, reconnectionDelay: 100, query: { token: seat } });
      let n = 0;
      let spoke = false;
      let resume: string | undefined;
      const send = (body: Record<string, unknown>) => socket.emit(FRAME_EVENT, JSON.stringify({ v: PROTOCOL_VERSION, id: `t${n++}`, ...body }));
      socket.on('connect', () => send({ type: 'seat.join', token: seat, ...(resume ? { resume } : {}), client: { name: 'study-test', version: '1', policy: 'human' } }));
      socket.io.on('reconnect_failed', () => reject(new Error('could not reach the seat')));
      socket.on(FRAME_EVENT, (raw: string) => {
        const f = JSON.parse(raw) as { type: string; turn?: number; nonce?: string; reason?: string; message?: string; resume?: string };
        if (f.type === 'seat.welcome' && f.resume) resume = f.resume;
        if (f.type === 'ping') send({ type: 'pong', nonce: f.nonce });
        if (f.type === 'turn.request') {
          const speak = opts.say !== undefined && !spoke;
          spoke = true;
          send({ type: 'turn.act', turn: f.turn, action: speak ? { type: 'speak', argument: opts.say } : { type: 'leave', argument: '' }, meta: { policy: 'human', latencyMs: 1 } });
        }
        if (f.type === 'episode.end') {
          socket.disconnect();
          resolve(f.reason ?? '');
        }
        if (f.type === 'error' && f.message) reject(new Error(f.message));
      });
    });
  }

  async survey(answers: Record<string, string>): Promise<Response> {
    return this.post('/api/study/survey', { answers });
  }

  /** The whole honest path: consent, wait, play, survey; resolves with the final view. */
  async complete(answer = 'person', opts: { say?: string } = {}): Promise<StudyView> {
    const c = await this.consent();
    if (!c.ok) throw new Error(`consent: HTTP ${c.status} ${await c.text()}`);
    return this.finish(answer, opts);
  }

  /** After consent: wait, play, survey. */
  async finish(answer = 'person', opts: { say?: string } = {}): Promise<StudyView> {
    const playing = await this.until((v) => v.state === 'playing' && v.seat !== undefined);
    await this.playSeat(playing.seat!, opts);
    await this.until((v) => v.state === 'survey');
    const s = await this.survey({ partner_was: answer });
    if (!s.ok) throw new Error(`survey: HTTP ${s.status} ${await s.text()}`);
    return (await s.json()) as StudyView;
  }
}
