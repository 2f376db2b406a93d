import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest body a study page sends (a survey of 30 answers of 100 characters, with room to spare). */
export const MAX_BODY_BYTES = 8192;

/** Answers JSON, never cached (a participant's state changes). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(JSON.stringify(body));
}

/**
 * Reads a JSON body once, whole: `Content-Type: application/json` is required (a cross-site form or a
 * no-cors request cannot send it), at most MAX_BODY_BYTES (413 and the connection closed past it).
 * Resolves with the value, or undefined once an error was answered.
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  return new Promise((resolve) => {
    if ((req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') {
      sendJson(res, 415, { error: 'send application/json' });
      req.resume();
      return resolve(undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const refuse = (): void => {
      done = true;
      res.setHeader('connection', 'close');
      sendJson(res, 413, { error: `a request body may be at most ${MAX_BODY_BYTES} bytes` });
      req.resume();
      resolve(undefined);
    };
    // A declared length over the budget is refused before a byte is read.
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return refuse();
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) refuse();
      else chunks.push(c);
    });
    req.on('error', () => {
      if (!done) resolve(undefined);
      done = true;
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        sendJson(res, 400, { error: 'the body must be JSON' });
        resolve(undefined);
      }
    });
  });
}

/** The bearer token of a request, when it has the expected form (32 hex digits). */
export function bearer(req: IncomingMessage): string | null {
  return /^Bearer ([0-9a-f]{32})$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
}
