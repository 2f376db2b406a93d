import { constants } from 'node:buffer';

/**
 * One HTTP/1.1 answer read from a connection's bytes, as they come (any split): the status, the headers and
 * the body, framed by `content-length`, `transfer-encoding: chunked`, or the connection's close. Strict
 * where Node's own parser (llhttp) is strict: a malformed status line or header, a content length that is not
 * a number or disagrees with itself, both framings at once, a bad chunk size: `Http1ParseError`. Interim
 * answers (1xx) are skipped. Used by llm/http1-pool.ts, the OpenAI light path's transport.
 */

/** The reply broke HTTP/1.1's grammar; the connection cannot be used again. */
export class Http1ParseError extends Error {
  override readonly name = 'Http1ParseError';
}

/** Node's default limit on a message's head (`--max-http-header-size`). */
const MAX_HEAD_BYTES = 16 * 1024;
/**
 * The most of a body kept: the longest string V8 makes (~512 MB), past which no caller could read the body as
 * text (fetch's `text()` fails there too, under the SDK). Without it a server sending without end (a body
 * read to the close) filled the agent process's memory until it died, with every seat it hosts.
 */
export const MAX_BODY_BYTES = constants.MAX_STRING_LENGTH;
/** A chunk-size line longer than this is not a chunk size (hex digits and short extensions). */
const MAX_CHUNK_LINE = 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
/** A header (or trailer) line; its value without control characters but tab, as llhttp refuses them. */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[\t ]*([^\x00-\x08\x0a-\x1f\x7f]*?)[\t ]*$/;
/** A chunk size (leading zeros any number, as llhttp reads them) and its extensions, nothing between. */
const CHUNK_SIZE = /^0*([0-9A-Fa-f]{1,12})(;[^\x00-\x08\x0a-\x1f\x7f]*)?$/;
/** Headers of which Node's `IncomingMessage` keeps the first and drops repeats; `cookie` it joins with "; ". */
const FIRST_WINS = new Set(['content-type', 'content-length', 'user-agent', 'referer', 'host', 'authorization', 'proxy-authorization', 'if-modified-since', 'if-unmodified-since', 'from', 'location', 'max-forwards', 'retry-after', 'etag', 'last-modified', 'server', 'age', 'expires']);

export interface Http1Head {
  status: number;
  /** Lower-case names; repeats joined with ", " (the first only for FIRST_WINS), as Node's `headers` read through the light path's `get`. */
  headers: Map<string, string>;
}

type Framing = { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

/** Reads one answer; `push` each chunk received, `close` when the connection ends. */
export class Http1Reply {
  head: Http1Head | null = null;
  /** True once the whole answer is in (`body` is then complete). */
  done = false;
  /** Whether the connection may carry another request once this answer is done. */
  reusable = false;
  private keepAlive = false;
  private framing: Framing = { kind: 'none' };
  private pending: Buffer | null = null;
  private readonly chunks: Buffer[] = [];
  private chunk: 'size' | 'data' | 'data-end' | 'trailers' = 'size';
  private chunkLeft = 0;
  private bodyBytes = 0;

  /** `maxBodyBytes`: a larger body is refused (MAX_BODY_BYTES; tests give less). */
  constructor(private readonly maxBodyBytes = MAX_BODY_BYTES) {}

  /** The body as received (chunked framing removed); complete once `done`. */
  body(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }

  /**
   * Takes the next bytes of the connection. Bytes past the end of the answer in the same read are a parse
   * error (Node's parser reads them as the next answer's start and fails); pushed later, the connection is
   * not reused.
   */
  push(data: Buffer): void {
    if (this.done) {
      if (data.length > 0) this.reusable = false;
      return;
    }
    let buf = this.pending ? Buffer.concat([this.pending, data]) : data;
    this.pending = null;
    while (!this.head) {
      const end = buf.indexOf(HEAD_END);
      if (end < 0) {
        if (buf.length > MAX_HEAD_BYTES) throw new Http1ParseError('the answer\'s head is over 16 KB');
        if (hasBareLf(buf, 0)) throw new Http1ParseError('a line of the head ends without CR');
        this.pending = buf;
        return;
      }
      if (end > MAX_HEAD_BYTES) throw new Http1ParseError('the answer\'s head is over 16 KB');
      const head = this.parseHead(buf.toString('latin1', 0, end));
      buf = buf.subarray(end + 4);
      if (head.status >= 100 && head.status < 200) {
        if (head.status === 101) throw new Http1ParseError('an upgrade was not asked for');
        continue;
      }
      this.head = head;
      this.framing = framingOf(head);
      if (this.framing.kind === 'none') this.finish();
    }
    this.body_(buf);
  }

  /**
   * The connection ended. True when that completes the answer (a body read to the close); false when the
   * answer is cut short (`head` says whether its head had arrived). Never reusable after.
   */
  close(): boolean {
    this.reusable = false;
    if (this.done) return true;
    if (this.head && this.framing.kind === 'close') {
      this.done = true;
      return true;
    }
    return false;
  }

  private parseHead(text: string): Http1Head {
    const lines = text.split('\r\n');
    const status = STATUS_LINE.exec(lines[0]!);
    if (!status) throw new Http1ParseError(`not an HTTP/1.x status line: ${JSON.stringify(lines[0]!.slice(0, 80))}`);
    const headers = new Map<string, string>();
    for (let i = 1; i < lines.length; i++) {
      const m = HEADER_LINE.exec(lines[i]!);
      if (!m) throw new Http1ParseError(`a malformed header line: ${JSON.stringify(lines[i]!.slice(0, 80))}`);
      const name = m[1]!.toLowerCase();
      const value = m[2]!;
      const seen = headers.get(name);
      if (name === 'content-length' && seen !== undefined) throw new Http1ParseError('a second content-length');
      if (seen === undefined) headers.set(name, value);
      else if (!FIRST_WINS.has(name)) headers.set(name, `${seen}${name === 'cookie' ? '; ' : ', '}${value}`);
    }
    const minor = status[1]!;
    const connection = (headers.get('connection') ?? '').toLowerCase().split(',').map((t) => t.trim());
    this.keepAlive = minor === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    return { status: Number(status[2]), headers };
  }

  private body_(buf: Buffer): void {
    const f = this.framing;
    if (f.kind === 'close') {
      if (buf.length > 0) this.keep(buf);
    } else if (f.kind === 'length') {
      const take = Math.min(f.left, buf.length);
      if (take > 0) this.keep(buf.subarray(0, take));
      f.left -= take;
      if (f.left === 0) {
        this.finish();
        if (buf.length > take) throw TRAILING();
      }
    } else if (f.kind === 'chunked') {
      this.chunked(buf);
    } else if (buf.length > 0) {
      throw TRAILING();
    }
  }

  /** Chunked framing: size line, data, CRLF, …, a zero size, trailers, an empty line. */
  private chunked(buf: Buffer): void {
    let at = 0;
    while (at < buf.length && !this.done) {
      if (this.chunk === 'data') {
        const take = Math.min(this.chunkLeft, buf.length - at);
        this.keep(buf.subarray(at, at + take));
        at += take;
        this.chunkLeft -= take;
        if (this.chunkLeft === 0) this.chunk = 'data-end';
        continue;
      }
      const eol = buf.indexOf(CRLF, at);
      if (eol < 0) {
        if (buf.length - at > MAX_CHUNK_LINE) throw new Http1ParseError('a chunk line is too long');
        if (hasBareLf(buf, at)) throw new Http1ParseError('a chunk line ends without CR');
        this.pending = buf.subarray(at);
        return;
      }
      const line = buf.toString('latin1', at, eol);
      at = eol + 2;
      if (this.chunk === 'data-end') {
        if (line !== '') throw new Http1ParseError('a chunk is longer than its size');
        this.chunk = 'size';
      } else if (this.chunk === 'size') {
        const size = CHUNK_SIZE.exec(line);
        if (!size) throw new Http1ParseError(`not a chunk size: ${JSON.stringify(line.slice(0, 40))}`);
        this.chunkLeft = Number.parseInt(size[1]!, 16);
        this.chunk = this.chunkLeft === 0 ? 'trailers' : 'data';
      } else if (line === '') {
        this.finish();
      } else if (!HEADER_LINE.test(line)) {
        throw new Http1ParseError(`a malformed trailer: ${JSON.stringify(line.slice(0, 40))}`);
      }
    }
    if (this.done && at < buf.length) throw TRAILING();
  }

  /** A piece of the body, kept while the body stays within its bound. */
  private keep(piece: Buffer): void {
    this.bodyBytes += piece.length;
    if (this.bodyBytes > this.maxBodyBytes) throw new Http1ParseError(`the answer's body is over ${this.maxBodyBytes} bytes`);
    this.chunks.push(piece);
  }

  private finish(): void {
    this.done = true;
    this.reusable = this.keepAlive;
  }
}

/** Bytes after the answer's end, read with it (a body longer than its length). */
const TRAILING = () => new Http1ParseError('bytes after the end of the answer');

/** Whether a line feed from `from` on comes without its carriage return (Node's parser refuses those). */
function hasBareLf(buf: Buffer, from: number): boolean {
  for (let i = buf.indexOf(10, from); i >= 0; i = buf.indexOf(10, i + 1)) if (i === 0 || buf[i - 1] !== 13) return true;
  return false;
}

/** How the body is framed (RFC 9112 §6.3, as Node's parser reads it). */
function framingOf(head: Http1Head): Framing {
  if (head.status === 204 || head.status === 304) return { kind: 'none' };
  const te = head.headers.get('transfer-encoding');
  const cl = head.headers.get('content-length');
  if (te !== undefined) {
    if (cl !== undefined) throw new Http1ParseError('both content-length and transfer-encoding');
    const codings = te.toLowerCase().split(',').map((t) => t.trim());
    return codings[codings.length - 1] === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
  }
  if (cl !== undefined) {
    if (!/^\d{1,15}$/.test(cl)) throw new Http1ParseError(`not a content length: ${JSON.stringify(cl.slice(0, 40))}`);
    const left = Number(cl);
    return left === 0 ? { kind: 'none' } : { kind: 'length', left };
  }
  return { kind: 'close' };
}
