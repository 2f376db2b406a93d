import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, createInflateRaw } from 'node:zlib';
import { Parser } from 'tar';
import { Manifest, MANIFEST_FILE } from './manifest.js';

/**
 * `parley verify PACK.tar.gz`: reads the pack once, hashing every file as it streams by, and checks the
 * hashes against its manifest. A pack is untrusted: entry paths must be relative and inside the one
 * folder, only files and folders are accepted, and a damaged archive (a bad gzip or tar block) is a
 * problem named by the file being read when it broke, never an exception.
 */
export interface VerifyResult {
  ok: boolean;
  /** One line per problem, each starting with the file it concerns. */
  problems: string[];
  manifest: Manifest | null;
  files: number;
}

/** The manifest can hold at most this much (1 MiB: tens of thousands of files). */
const MAX_MANIFEST_BYTES = 1 << 20;

interface Seen {
  sha256: string;
  bytes: number;
  text?: string;
}

/** The deflate body of a gzip file and its trailer (RFC 1952), or why it is not one. */
function gzipParts(buf: Buffer): { body: Buffer; crc: number; size: number } | string {
  if (buf.length < 18 || buf[0] !== 0x1f || buf[1] !== 0x8b || buf[2] !== 8) return 'not a gzip file';
  const flags = buf[3]!;
  let p = 10;
  if (flags & 4) p += 2 + buf.readUInt16LE(p);
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    while (p < buf.length && buf[p] !== 0) p++;
    p++;
  }
  if (flags & 2) p += 2;
  if (p > buf.length - 8) return 'its gzip header is damaged';
  return { body: buf.subarray(p, buf.length - 8), crc: buf.readUInt32LE(buf.length - 8), size: buf.readUInt32LE(buf.length - 4) };
}

/** Inflates as much of a deflate stream as can be read: a damaged one gives what came before the damage, and the error. */
async function inflateWhatCan(body: Buffer): Promise<{ data: Buffer; error: string | null }> {
  const chunks: Buffer[] = [];
  const inflate = createInflateRaw();
  return new Promise((resolve) => {
    inflate.on('data', (c: Buffer) => chunks.push(c));
    inflate.on('end', () => resolve({ data: Buffer.concat(chunks), error: null }));
    inflate.on('error', (err) => resolve({ data: Buffer.concat(chunks), error: err.message }));
    inflate.end(body);
  });
}

/**
 * Reads every entry of the archive: path → hash (and the manifest's text). The gzip layer is undone here,
 * not by tar, so that a damaged stream still gives its entries up to the damage (named by file), and the
 * gzip trailer's CRC and size are checked against what was read.
 */
async function readEntries(file: string, problems: string[]): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const parts = gzipParts(readFileSync(file));
  if (typeof parts === 'string') {
    problems.push(`${path.basename(file)}: ${parts}`);
    return seen;
  }
  const { data, error } = await inflateWhatCan(parts.body);
  let current = '(the first file)';
  let broken: string | null = null;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      const name = String(entry.path).replace(/\/+$/, '');
      current = name;
      if (entry.type === 'Directory') return entry.resume();
      if (entry.type !== 'File' && entry.type !== 'OldFile') {
        problems.push(`${name}: a ${entry.type} entry (a pack holds files and folders only)`);
        return entry.resume();
      }
      if (name.startsWith('/') || name.split('/').includes('..')) {
        problems.push(`${name}: a path outside the pack's folder`);
        return entry.resume();
      }
      const hash = createHash('sha256');
      const keep = name.endsWith(`/${MANIFEST_FILE}`) && name.split('/').length === 2;
      const chunks: Buffer[] = [];
      let bytes = 0;
      entry.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (keep && bytes <= MAX_MANIFEST_BYTES) chunks.push(chunk);
      });
      entry.on('end', () => {
        seen.set(name, { sha256: hash.digest('hex'), bytes, ...(keep ? { text: Buffer.concat(chunks).toString('utf8') } : {}) });
      });
    },
  });
  await new Promise<void>((resolve) => {
    parser.on('error', (err: Error) => {
      broken ??= `${current}: the archive is damaged at or after this file (${err.message})`;
    });
    parser.on('end', () => resolve());
    parser.on('close', () => resolve());
    parser.end(data);
  });
  if (error) problems.push(`${current}: the archive is damaged at or after this file (gzip: ${error})`);
  else if (broken) problems.push(broken);
  else if (crc32(data) !== parts.crc || (data.length & 0xffffffff) >>> 0 !== parts.size) problems.push(`${path.basename(file)}: its gzip checksum does not match its contents`);
  return seen;
}

/** Verifies a pack against its manifest. */
export async function verifyPack(file: string): Promise<VerifyResult> {
  const problems: string[] = [];
  const seen = await readEntries(file, problems);
  const manifests = [...seen.entries()].filter(([, s]) => s.text !== undefined);
  if (manifests.length !== 1) {
    problems.push(`${MANIFEST_FILE}: ${manifests.length ? 'more than one top-level folder has one' : 'not found in the pack'}`);
    return { ok: false, problems, manifest: null, files: seen.size };
  }
  const [manifestPath, manifestEntry] = manifests[0]!;
  let manifest: Manifest;
  try {
    manifest = Manifest.parse(JSON.parse(manifestEntry.text!));
  } catch (err) {
    problems.push(`${manifestPath}: not a Parley manifest (${(err as Error).message.split('\n')[0]})`);
    return { ok: false, problems, manifest: null, files: seen.size };
  }
  const folder = manifestPath.split('/')[0]!;
  if (manifest.folder !== folder) problems.push(`${manifestPath}: names the folder ${manifest.folder}, the pack's folder is ${folder}`);
  const listed = new Set<string>();
  for (const f of manifest.files) {
    const name = `${folder}/${f.path}`;
    listed.add(name);
    const s = seen.get(name);
    if (!s) problems.push(`${name}: in the manifest, missing from the pack`);
    else if (s.sha256 !== f.sha256 || s.bytes !== f.bytes) problems.push(`${name}: changed (sha256 ${s.sha256.slice(0, 12)}…, the manifest says ${f.sha256.slice(0, 12)}…)`);
  }
  for (const name of seen.keys()) if (name !== manifestPath && !listed.has(name)) problems.push(`${name}: in the pack, not in the manifest`);
  return { ok: problems.length === 0, problems, manifest, files: seen.size };
}
