import { createHmac } from 'node:crypto';
import { NATURALNESS_FORMS, type NaturalnessForm } from '../../simulation/index.js';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import type { Mode } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { matchEpisodes, PAPER_NATURALNESS_QUESTION, type ComparePair } from '../compare/naturalness.js';
import { paperBackground, paperBio, paperConversation, paperGoal } from '../judge/paper-view.js';
import { renderTranscript } from '../judge/transcript.js';
import type { RunDir } from '../run-dir.js';
import { Annotation, parseAnnotations } from './annotation.js';
import { normaliseAnnotator } from './annotator-name.js';
import { annotatorOf, type StudySecrets } from './study-secrets.js';

/**
 * The paper's human naturalness study (appendix E) as a small web service: pairs of conversations of
 * the same scenario and character pair from two runs, shown to each annotator in an order fixed per
 * annotator and pair by a server-side salt (so a reload or a resumed study shows the same, and nobody can
 * predict it), with the setting, the characters' backgrounds and goals. Each annotator is known by a
 * token (study-secrets.ts), never by a typed name; one answer per annotator and pair (a second is refused
 * with 409). Answers are appended to a JSONL file, one line each, and the file is read back at start, so
 * a study can be stopped and resumed; each annotator is served the pairs they have not answered yet.
 */

/** The question, in Parley's words (the paper asks which conversation is more natural). */
export const STUDY_QUESTION =
  'Which of these two conversations sounds more like two real people talking in this situation? ' +
  'Judge how natural the exchange is (how people actually speak, how long their turns are, whether they repeat themselves, ' +
  'whether they mention things nobody told them), not which character did better.';

/** One character as annotators see it: background (profile fields) and goal. */
export interface StudyCharacter {
  name: string;
  background: string;
  goal: string;
}

/** What the page gets for one question. */
export interface StudyItem {
  key: string;
  question: string;
  setting: string;
  characters: StudyCharacter[];
  /** Transcript shown as "A" (left/first) and "B" (second). */
  first: string;
  second: string;
}

/** Largest answer body accepted (a 2,000-character reason in 4-byte characters, and room to spare). */
export const MAX_ANSWER_BYTES = 16_384;

const AnswerBody = z.object({
  key: z.string(),
  /** The position the annotator chose: `A` is the first shown transcript. */
  choice: z.enum(['A', 'B']),
  reason: z.string().max(2000).optional(),
});

export class Study {
  /**
   * What the page shows. `paper`: appendix E's question, SOTOPIA's context rendering and transcript form,
   * nothing more (no cue about information nobody shared). `parley`: Parley's question and layout.
   */
  view: NaturalnessForm = 'parley';
  readonly pairs: ComparePair[];
  private readonly answered = new Set<string>();

  constructor(
    private readonly a: RunDir,
    modeA: Mode,
    private readonly b: RunDir,
    modeB: Mode,
    private readonly out: string,
    private readonly secrets: StudySecrets,
  ) {
    this.pairs = matchEpisodes(a, modeA, b, modeB);
    if (existsSync(out)) {
      const { annotations, bad } = parseAnnotations(readFileSync(out, 'utf8'));
      if (bad.length) throw new Error(`${out}: line ${bad[0]!.line}: ${bad[0]!.message}`);
      for (const x of annotations) this.answered.add(`${normaliseAnnotator(x.annotator)}\u0000${x.key}`);
    }
  }

  /** Whether RUN_A's transcript is shown first to this annotator for this pair (a coin keyed by the study's secret salt). */
  aShownFirst(annotator: string, key: string): boolean {
    return (createHmac('sha256', this.secrets.salt).update(`${annotator}\u0000${key}`).digest()[0]! & 1) === 0;
  }

  /** The next pair this annotator has not answered, or null when done. */
  next(annotator: string): { done: number; total: number; item: StudyItem | null } {
    const open = this.pairs.filter((p) => !this.answered.has(`${annotator}\u0000${p.key}`));
    const pair = open[0];
    return { done: this.pairs.length - open.length, total: this.pairs.length, item: pair ? this.item(pair, annotator) : null };
  }

  /** Records the answer of a token's annotator (appended at once, one line); refuses unknown pairs and second answers. */
  answer(annotator: string, body: unknown): { ok: true } | { ok: false; status: number; message: string } {
    const parsed = AnswerBody.safeParse(body);
    if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? 'invalid answer' };
    const { key, choice, reason } = parsed.data;
    const pair = this.pairs.find((p) => p.key === key);
    if (!pair) return { ok: false, status: 400, message: 'no such pair in this study' };
    if (this.answered.has(`${annotator}\u0000${key}`)) return { ok: false, status: 409, message: 'you have already answered this pair' };
    const aShownFirst = this.aShownFirst(annotator, key);
    const line: Annotation = {
      v: 1,
      at: new Date().toISOString(),
      annotator,
      key,
      scenarioId: pair.scenarioId,
      runA: this.a.dir,
      runB: this.b.dir,
      episodeA: pair.a.episodeId,
      episodeB: pair.b.episodeId,
      aShownFirst,
      winner: (choice === 'A') === aShownFirst ? 'A' : 'B',
      ...(reason?.trim() ? { reason: reason.trim() } : {}),
    };
    appendFileSync(this.out, `${JSON.stringify(Annotation.parse(line))}\n`);
    this.answered.add(`${annotator}\u0000${key}`);
    return { ok: true };
  }

  /**
   * HTTP API, every call with `Authorization: Bearer TOKEN` (the annotator's link carries it):
   * `GET /api/next`, `POST /api/answer` (`Content-Type: application/json` required — a cross-site form or
   * no-cors request cannot send it — body at most MAX_ANSWER_BYTES, decoded once as UTF-8). Returns
   * false for other paths.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const json = (status: number, body: unknown) => void res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      // A path no URL can be made of (`GET //`): the client's mistake, answered as one, never a 500.
      json(400, { error: 'not a request path' });
      req.resume();
      return true;
    }
    const isNext = url.pathname === '/api/next' && req.method === 'GET';
    const isAnswer = url.pathname === '/api/answer' && req.method === 'POST';
    if (!isNext && !isAnswer) return false;
    const token = /^Bearer ([0-9a-f]{32})$/.exec(req.headers.authorization ?? '')?.[1];
    const annotator = token ? annotatorOf(this.secrets, token) : null;
    if (!annotator) {
      json(401, { error: 'open the study with the link the organiser gave you (it carries your token)' });
      req.resume();
      return true;
    }
    if (isNext) {
      json(200, { annotator, ...this.next(annotator) });
      return true;
    }
    if ((req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') {
      json(415, { error: 'an answer must be sent as application/json' });
      req.resume();
      return true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (c: Buffer) => {
      if (refused) return;
      size += c.length;
      if (size > MAX_ANSWER_BYTES) {
        refused = true;
        res.setHeader('connection', 'close');
        json(413, { error: `an answer may be at most ${MAX_ANSWER_BYTES} bytes` });
        req.resume();
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (refused) return;
      let parsed: unknown;
      try {
        // Decoded once, whole: a UTF-8 character split across two TCP writes arrives intact.
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return json(400, { error: 'the answer must be JSON' });
      }
      const r = this.answer(annotator, parsed);
      json(r.ok ? 200 : r.status, r.ok ? { ok: true } : { error: r.message });
    });
    return true;
  }

  private item(pair: ComparePair, annotator: string): StudyItem {
    const paper = NATURALNESS_FORMS[this.view].appendixE;
    const render = paper ? paperConversation : renderTranscript;
    const ta = render(pair.a, pair.scenario);
    const tb = render(pair.b, pair.scenario);
    const aFirst = this.aShownFirst(annotator, pair.key);
    const question = paper ? PAPER_NATURALNESS_QUESTION : STUDY_QUESTION;
    return { key: pair.key, question, setting: setting(pair.scenario, paper), characters: characters(pair.scenario, paper), first: aFirst ? ta : tb, second: aFirst ? tb : ta };
  }
}

/** The scenario's public narrative (judge-only text is never part of it); under paper, SOTOPIA's scenario text as its annotators read it. */
function setting(s: Scenario | undefined, paper: boolean): string {
  if (s && paper) return paperBackground(s, { judgeOnly: false }).split('\n').find((l) => l.startsWith('Scenario: '))?.slice('Scenario: '.length) ?? '';
  return s ? s.narrative.filter((n) => n.visibleTo === 'all').map((n) => n.text).join(' ') : '(scenario not found in the run directories)';
}

/** Each character's background and goal, as SOTOPIA's annotators saw them. */
function characters(s: Scenario | undefined, paper: boolean): StudyCharacter[] {
  if (!s) return [];
  // The goal as the judge and the LLM naturalness question render it: its hint texts inline (a MutualFriends friend list is one).
  if (paper) return s.seats.map((seat) => ({ name: seat.character.name, background: paperBio(seat.character), goal: paperGoal(seat) }));
  return s.seats.map((seat) => {
    const c = seat.character;
    const parts = [
      [c.age !== undefined ? `${c.age} years old` : '', c.gender ?? '', c.occupation ?? ''].filter(Boolean).join(', '),
      c.pronouns ? `pronouns ${c.pronouns}` : '',
      c.publicInfo ?? '',
      c.personality ?? '',
      c.secret ? `Secret: ${c.secret}` : '',
    ].filter(Boolean);
    return { name: c.name, background: parts.join('. '), goal: seat.goal };
  });
}
