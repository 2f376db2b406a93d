import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { jsonlLines } from '../disk/jsonl-lines.js';
import { readRegularFile, RUN_FILE_CAPS } from '../disk/regular-file.js';
import { ErrorCode } from '../protocol/index.js';
import { isLlmError, LlmError, LlmErrorCode } from './errors.js';
import { holdMessagesJson, objectPieces, piecesBytes, piecesWithMessages } from './messages-json.js';
import type { ChatRequest, ChatResponse, LlmClient } from './types.js';

/**
 * Cassettes: every LLM call of a seat, in order, one JSON line each, in one file per seat (where the file
 * lies is run-dir/'s business: cassette-layout.ts). A replay answers the same sequence of calls from them.
 */
export interface CassetteEntry {
  /** Position of the call in the seat's sequence, from 0. */
  seq: number;
  /** Wall-clock time the call finished (ISO). */
  at: string;
  provider: string;
  model: string;
  request: ChatRequest;
  response?: ChatResponse;
  /** A call that finally failed is recorded too, so a replay fails the same way. */
  error?: { code: string; message: string; status?: number };
}

/**
 * The files one seat's calls go to and come from (run-dir/cassette-layout.ts decides where they lie):
 * `record`, appended to as calls finish; `replay`, a recorded run's file that answers the calls instead.
 */
export interface CassetteFiles {
  record?: string;
  replay?: string;
}

/**
 * Reads a cassette file; null when it does not exist. Bytes after the last newline are the torn write of a
 * process that died mid-append (crash recovery and `--replay` read such files): by the one torn-line rule
 * (disk/jsonl-lines.ts) they are left out and reported once through `onTorn`. Any other bad line is a bug
 * or a hand edit and throws.
 */
export function readCassette(file: string, onTorn: (file: string, message: string) => void = warnTornOnce): CassetteEntry[] | null {
  if (!existsSync(file)) return null;
  // A replay reads another run's cassettes: a regular file of bounded size only (no symlink, no FIFO).
  const read = readRegularFile(file, RUN_FILE_CAPS.jsonl);
  if (!read.ok) throw new LlmError(LlmErrorCode.BadSpec, read.message);
  const { lines, tornBytes, tornLine } = jsonlLines(read.text);
  const entries: CassetteEntry[] = [];
  for (const { line, text } of lines) {
    try {
      entries.push(JSON.parse(text) as CassetteEntry);
    } catch (err) {
      throw new Error(`${file}:${line}: not a JSON cassette entry`, { cause: err });
    }
  }
  if (tornLine !== null) onTorn(file, `${file}:${tornLine}: torn last line left out (${tornBytes} bytes, no newline)`);
  return entries;
}

const reportedTorn = new Set<string>();

/** Default torn-line report: one warning per file per process, however often the file is read. */
function warnTornOnce(file: string, message: string): void {
  if (reportedTorn.has(file)) return;
  reportedTorn.add(file);
  console.warn(`parley: ${message}`);
}

/**
 * Recording clients whose cassette file is held open, oldest first. Bounded: a client nobody closes (a
 * judge's, a dropped seat's) gives its descriptor up once 64 newer ones are open, and appends by path after.
 */
const openRecorders = new Set<RecordingClient>();
const MAX_OPEN_RECORDERS = 64;

/**
 * Wraps a client so that every call (answer or final error) is appended to the seat's cassette. One
 * instance per playing of a seat: it starts the file afresh, so a rerun episode (`--retry-failed`)
 * does not keep the failed attempt's calls in front of its own — except with `resume` (a seat taken
 * over by a fresh process after a crash), which continues the cassette and its numbering.
 */
export class RecordingClient implements LlmClient {
  private seq = 0;
  /**
   * The file, opened once for appending (O_APPEND): opening and closing it for every call was two system
   * calls and a path walk a turn in a model seat (bench/agent-profile.md, ninth pass). Null once closed.
   */
  private fd: number | null;

  constructor(
    private readonly inner: LlmClient,
    readonly file: string,
    options: { resume?: boolean } = {},
  ) {
    mkdirSync(dirname(file), { recursive: true });
    const earlier = options.resume ? readCassette(file) : null;
    if (earlier) {
      this.seq = earlier.length;
      // Cut a torn last line off, or the next append would glue onto it and corrupt a middle line.
      const text = readFileSync(file, 'utf8');
      if (text !== '' && !text.endsWith('\n')) truncateSync(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
      this.fd = openSync(file, 'a');
    } else this.fd = openSync(file, 'w');
    openRecorders.add(this);
    if (openRecorders.size > MAX_OPEN_RECORDERS) openRecorders.values().next().value!.close();
  }

  get provider(): string {
    return this.inner.provider;
  }
  get model(): string {
    return this.inner.model;
  }

  async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const base = { seq: this.seq++, provider: this.inner.provider, model: this.inner.model, request: req };
    // The body's JSON of these messages is kept for this call's line, and only until it is written.
    const release = holdMessagesJson(req.messages);
    try {
      const response = await this.inner.chat(req, signal);
      this.append({ ...base, at: new Date().toISOString(), response });
      return response;
    } catch (err) {
      const error: CassetteEntry['error'] = isLlmError(err)
        ? { code: err.code, message: err.message, ...(err.status !== undefined ? { status: err.status } : {}) }
        : { code: ErrorCode.Internal, message: String((err as Error)?.message ?? err) };
      this.append({ ...base, at: new Date().toISOString(), error });
      throw err;
    } finally {
      release();
    }
  }

  /** Gives the file's descriptor up; a call after it still records (by path, as every call once did). */
  close(): void {
    openRecorders.delete(this);
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private append(entry: CassetteEntry): void {
    // Synchronous so that the line is on disk before the move leaves the process.
    // The request's messages as the HTTP body wrote them (messages-json.ts): the same bytes, made once.
    const request = piecesWithMessages(entry.request);
    const line = objectPieces(entry as unknown as Record<string, unknown>, (key) => (key === 'request' ? request : undefined));
    line.push('\n');
    appendFileSync(this.fd ?? this.file, piecesBytes(line));
  }
}

/** The part of a request that decides the answer: the messages and the output schema. */
function fingerprint(req: ChatRequest): string {
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify({ messages: req.messages, json: req.json ?? null }))));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** First differing message, for an error that says where the runs diverged. */
function describeMismatch(got: ChatRequest, want: ChatRequest): string {
  const n = Math.max(got.messages.length, want.messages.length);
  for (let i = 0; i < n; i++) {
    const a = got.messages[i];
    const b = want.messages[i];
    if (!a || !b) return `message count ${got.messages.length} ≠ recorded ${want.messages.length}`;
    if (a.role !== b.role) return `message ${i}: role ${a.role} ≠ recorded ${b.role}`;
    if (a.content !== b.content) {
      let k = 0;
      while (k < a.content.length && a.content[k] === b.content[k]) k++;
      return `message ${i} (${a.role}) differs at character ${k}: …${JSON.stringify(a.content.slice(k, k + 60))} vs recorded …${JSON.stringify(b.content.slice(k, k + 60))}`;
    }
  }
  return 'output schema differs';
}

/**
 * Answers a seat's calls from its recorded cassette, in order, with no network. A different request,
 * or more calls than were recorded, is an explicit `llm/replay_*` error, never a made-up answer.
 */
export class ReplayClient implements LlmClient {
  private cursor = 0;
  private readonly entries: CassetteEntry[] | null;
  readonly provider: string;
  readonly model: string;

  /** `resume`: a seat taken over mid-episode starts at the first recorded call matching its request. */
  private seeking: boolean;

  constructor(readonly file: string, fallback: { provider: string; model: string }, options: { resume?: boolean } = {}) {
    this.entries = readCassette(file);
    const first = this.entries?.[0];
    this.provider = first?.provider ?? fallback.provider;
    this.model = first?.model ?? fallback.model;
    this.seeking = options.resume === true;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    if (!this.entries) throw new LlmError(LlmErrorCode.ReplayMissing, `replay: no cassette at ${this.file}`);
    if (this.seeking) {
      this.seeking = false;
      const at = this.entries.findIndex((e) => fingerprint(e.request) === fingerprint(req));
      if (at >= 0) this.cursor = at;
    }
    const entry = this.entries[this.cursor];
    if (!entry) {
      throw new LlmError(LlmErrorCode.ReplayExhausted, `replay: call ${this.cursor + 1} but ${this.file} recorded only ${this.entries.length}`);
    }
    if (fingerprint(req) !== fingerprint(entry.request)) {
      throw new LlmError(LlmErrorCode.ReplayMismatch, `replay: call ${this.cursor + 1} differs from ${this.file}: ${describeMismatch(req, entry.request)}`);
    }
    this.cursor++;
    if (entry.error) {
      const opts = entry.error.status !== undefined ? { status: entry.error.status } : {};
      throw new LlmError(entry.error.code as LlmErrorCode, `replayed failure: ${entry.error.message}`, opts);
    }
    if (!entry.response) throw new LlmError(LlmErrorCode.BadResponse, `replay: entry ${entry.seq} of ${this.file} has neither response nor error`);
    // The answer as recorded; no provider retries were spent in this run.
    return { ...entry.response, retries: 0 };
  }

  /** Calls recorded but not (yet) asked for. */
  get remaining(): number {
    return (this.entries?.length ?? 0) - this.cursor;
  }
}
