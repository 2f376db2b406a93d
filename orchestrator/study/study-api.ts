import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { bearer, readJsonBody, sendJson } from './json-request.js';
import { clientAddress, RequestLimiter } from './request-limiter.js';
import type { StudyDesk } from './desk.js';

/** Long polls held at once, across participants (each is a socket and a timer): a bound on what strangers hold open. */
export const MAX_POLLS = 2000;

export interface StudyApiOptions {
  desk: StudyDesk;
  /** The organiser page's key (32 hex digits), compared in constant time. */
  organiserKey: string;
  organiserStats: () => object;
  trustProxy: boolean;
  log: (line: string) => void;
}

/**
 * The study's JSON API under `/api/study/` (participants) and `/api/organiser` (the organiser's key).
 * Tokens travel in `Authorization: Bearer` (the pages keep them from the URL fragment or storage, so
 * no URL the server sees carries one); bodies are JSON of at most MAX_BODY_BYTES; every address has a
 * request budget per minute. Returns false for paths it does not serve.
 */
export function studyApi(o: StudyApiOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const limiter = new RequestLimiter(o.desk.study.requestsPerMinute);
  const key = Buffer.from(o.organiserKey);
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!path.startsWith('/api/')) return false;
    if (!limiter.allow(clientAddress(req, o.trustProxy))) {
      sendJson(res, 429, { error: 'too many requests from your address; wait a minute' });
      req.resume();
      return true;
    }
    if (path === '/api/organiser' && req.method === 'GET') {
      const given = Buffer.from(bearer(req) ?? '');
      if (given.length !== key.length || !timingSafeEqual(given, key)) sendJson(res, 403, { error: 'the organiser page needs the organiser url printed by parley study' });
      else sendJson(res, 200, o.organiserStats());
      return true;
    }
    void participantRoute(o.desk, path, req, res).catch((err: Error) => {
      // A bug answering one request is that request's 500, never the end of the study.
      o.log(`study api: ${err.message}`);
      sendJson(res, 500, { error: 'internal error' });
    });
    return true;
  };
}

async function participantRoute(desk: StudyDesk, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const route = `${req.method} ${path}`;
  if (route === 'GET /api/study/info') return sendJson(res, 200, desk.info());
  if (route === 'POST /api/study/consent') {
    const body = await readJsonBody(req, res);
    if (body === undefined) return;
    const r = desk.consent(body);
    return sendJson(res, r.ok ? 200 : r.status, r.ok ? r.value : { error: r.error });
  }
  const known = ['GET /api/study/state', 'POST /api/study/survey', 'POST /api/study/again'];
  if (!known.includes(route)) {
    req.resume();
    return sendJson(res, 404, { error: 'no such study request' });
  }
  const token = bearer(req);
  const p = token ? desk.store.byTokenOf(token) : null;
  if (!p) {
    req.resume();
    return sendJson(res, 401, { error: 'open the study with your link again (this browser has no session of it)' });
  }
  if (route === 'GET /api/study/state') {
    if (desk.polls >= MAX_POLLS) return sendJson(res, 503, { error: 'busy; try again' });
    const since = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('since') ?? -1);
    const closed = new Promise<void>((r) => res.once('close', () => r()));
    return sendJson(res, 200, await desk.poll(p, Number.isFinite(since) ? since : -1, closed));
  }
  const body = route === 'POST /api/study/survey' ? await readJsonBody(req, res) : (req.resume(), {});
  if (body === undefined) return;
  const r = route === 'POST /api/study/survey' ? desk.survey(p, body) : desk.again(p);
  sendJson(res, r.ok ? 200 : r.status, r.ok ? r.value : { error: r.error });
}
