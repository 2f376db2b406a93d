/**
 * The built-in modules' code cache in an agent blob, cut to the modules a process can still compile.
 *
 * `node --build-snapshot` ends its blob with a V8 code cache for every one of Node's ~320 built-in modules
 * (2.7 MB of the one-seat blob's 6.6 MB). A process uses an entry only when it compiles that module after
 * deserialisation: the modules loaded while the blob was built are in its heap already, and most of the others
 * (the test runner, the inspector, acorn, ...) no agent ever loads. Yet every start reads the whole file, and
 * Node copies each entry apart (page faults, ~1,000 a blob MB: bench/start-up.md). Node 20's
 * `withoutCodeCache` build config drops them all, but it also clears every compiled function of the heap
 * (V8's `kClear`): the rehearsals' bytecode is lost, and a class field initializer recompiled from source then
 * read the wrong variable in V8 11.3 ("SeatViewState is not a constructor"), and Node stops checking the V8
 * flags a blob was built with. Cutting the entries from the file keeps the heap and the flag check as built.
 *
 * Layout (Node 20, src/node_snapshotable.cc `SnapshotData::ToBlob`): the code cache is the blob's last field,
 * a vector written as its count (8 bytes, little-endian) and per entry the module id (8-byte length, bytes),
 * then the cache (8-byte length, bytes, each starting with V8's code cache magic). It is found by that shape
 * and must run exactly to the file's end; a blob of another shape is left whole.
 */

import { readFileSync, writeFileSync } from 'node:fs';

/** V8's code cache magic (`SerializedCodeData::kMagicNumber`, little-endian) at the start of every entry's data. */
const CACHE_MAGIC = Buffer.from([0xcc, 0x05, 0xde, 0xc0]);
const MAX_ID = 200;
const ID = /^[\x21-\x7e]+$/;

/** Node's ids of its internal modules (written so: `internal/` literals look like error codes to test/boundaries). */
const internal = (...ids: string[]): string[] => ids.map((id) => `internal/${id}`);

/**
 * The built-ins an agent process compiles after deserialisation, by Node 20's ids: its IPC channel's (Node
 * loads them before the blob's main function runs), node:module's require for the deferred modules
 * (agent-node/snapshot-entry.ts), and the HTTP and TLS clients and async_hooks, which the snapshot bundle
 * defers (snapshot-deferred.ts) and an LLM seat loads, with what they load. Listed from
 * `process.moduleLoadList` of a process from the blob. Left out: what only rare seats load (readline and
 * assert for a human relay, http2 and fs/promises), ~110 KB a start; a module without its entry is compiled
 * from source (a few ms), nothing else changes.
 */
export const CODE_CACHE_KEPT: ReadonlySet<string> = new Set([
  // The IPC channel.
  'dgram', 'child_process', ...internal('dgram', 'socket_list', 'child_process', 'child_process/serialization'),
  // node:module's createRequire.
  'module', ...internal('modules/esm/assert', 'modules/esm/loader', 'source_map/source_map'),
  // http, https, tls (deferred), async_hooks (deferred).
  '_http_agent', '_http_incoming', '_http_common', '_http_outgoing', '_http_client', '_http_server', 'http', ...internal('freelist', 'http'),
  '_tls_common', '_tls_wrap', 'tls', 'https', ...internal('tls/secure-context', 'js_stream_socket', 'tls/secure-pair'),
  'async_hooks',
]);

interface CacheEntry {
  id: string;
  /** The entry's bytes in the blob (id and cache, with their lengths). */
  start: number;
  end: number;
}

const u64 = (buf: Buffer, at: number): number => (at + 8 <= buf.length ? Number(buf.readBigUInt64LE(at)) : -1);

/** The entries of a code cache vector starting at `at`, if it has that shape and ends where the file does. */
function entriesAt(buf: Buffer, at: number): CacheEntry[] | null {
  const count = u64(buf, at);
  if (count < 1 || count > 10_000) return null;
  const entries: CacheEntry[] = [];
  let o = at + 8;
  for (let i = 0; i < count; i++) {
    const start = o;
    const idLength = u64(buf, o);
    if (idLength < 1 || idLength > MAX_ID) return null;
    const id = buf.toString('latin1', o + 8, o + 8 + idLength);
    o += 8 + idLength;
    const length = u64(buf, o);
    if (!ID.test(id) || length < CACHE_MAGIC.length || o + 8 + length > buf.length || !buf.subarray(o + 8, o + 12).equals(CACHE_MAGIC)) return null;
    o += 8 + length;
    entries.push({ id, start, end: o });
  }
  return o === buf.length ? entries : null;
}

/** Where the blob's code cache vector starts and its entries, or null when the blob has no such tail. */
export function findCodeCache(buf: Buffer): { at: number; entries: CacheEntry[] } | null {
  // The first entry's data starts with the magic: its 8-byte length is before it, its id before that, the
  // id's length before that, and the vector's count first.
  for (let m = buf.indexOf(CACHE_MAGIC); m >= 0; m = buf.indexOf(CACHE_MAGIC, m + 1)) {
    for (let idLength = 1; idLength <= MAX_ID; idLength++) {
      const at = m - 8 - idLength - 8 - 8;
      if (at < 0) break;
      if (u64(buf, at + 8) !== idLength) continue;
      const entries = entriesAt(buf, at);
      if (entries) return { at, entries };
    }
  }
  return null;
}

/**
 * The blob with only the code cache entries `keep` names, or null when its code cache cannot be found (the
 * caller keeps the blob as built).
 */
export function withCodeCacheOf(buf: Buffer, keep: ReadonlySet<string> = CODE_CACHE_KEPT): Buffer | null {
  const found = findCodeCache(buf);
  if (!found) return null;
  const kept = found.entries.filter((e) => keep.has(e.id));
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(kept.length));
  return Buffer.concat([buf.subarray(0, found.at), count, ...kept.map((e) => buf.subarray(e.start, e.end))]);
}

/** What a build kept of Node's code cache: the cut, or the whole cache and why the cut was not kept. */
export type CodeCacheKept = { kept: 'cut' } | { kept: 'whole'; why: string };

/**
 * Cuts the code cache of the blob at `path` (withCodeCacheOf) and checks that a process starts from it (`start`);
 * if none does, the blob goes back to its bytes as built and is checked in turn, so a cut Node cannot load (a
 * Node whose blob layout changed in a way the shape check missed) costs the cut, not the snapshot. Rejects with
 * the whole blob's error when neither starts. Says which was kept, and why not the cut (the caller tells the user:
 * a whole blob costs every start ~1,400 page faults).
 */
export async function cutIfItStarts(path: string, start: () => Promise<void>, cut: (whole: Buffer) => Buffer | null = withCodeCacheOf): Promise<CodeCacheKept> {
  const whole = readFileSync(path);
  const smaller = cut(whole);
  let why = "its code cache was not found where Node 20's blob layout puts it";
  if (smaller) {
    writeFileSync(path, smaller);
    try {
      await start();
      return { kept: 'cut' };
    } catch (err) {
      why = `a process from the cut blob did not start: ${String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 200)}`;
      writeFileSync(path, whole);
    }
  }
  await start();
  return { kept: 'whole', why };
}

/** The line a build that kept the whole code cache writes on its command's stderr (and in `<blob>.code-cache`). */
export const wholeCacheLine = (why: string): string =>
  `parley: the agent start-up snapshot keeps Node's whole code cache (a larger blob, more page faults a start): ${why}`;
