import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { importSotopia, SOTOPIA_FILES, type SotopiaImport } from '../import/sotopia.js';
import { cacheDir } from './cache-dir.js';
import { downloadTo } from './download.js';
import { isUrl, SOTOPIA_EXPECTED_COUNTS, sotopiaSources } from './sotopia-sources.js';

export interface SotopiaFetchOptions {
  /** A base URL or a local directory holding the five files; default: SOTOPIA's public repositories. */
  from?: string;
  /** Cache root (default `cacheDir()`). */
  cache?: string;
  /** Download again even when the cache holds a verified copy. */
  refresh?: boolean;
  /** One line per step: what is fetched, from where, where it is cached. */
  log?: (line: string) => void;
  fetchImpl?: typeof fetch;
}

export interface SotopiaFetchResult extends SotopiaImport {
  /** The directory the verified files were imported from (the cache entry for a download). */
  dir: string;
  /** File → where it came from. */
  sources: Record<string, string>;
  /** True when the files were already in the cache. */
  cached: boolean;
}

/**
 * Gets SOTOPIA's benchmark profiles, verifies them (every record through the importer's schemas, and
 * the published counts 90 environments / 40 characters / 120 relationships / 450 pairs) and imports
 * them. A download goes to a fresh directory under the cache and is moved into place only once
 * verified, so a failed or partial fetch leaves nothing behind.
 */
export async function fetchSotopia(options: SotopiaFetchOptions = {}): Promise<SotopiaFetchResult> {
  const log = options.log ?? (() => {});
  const sources = sotopiaSources(options.from);
  if (options.from !== undefined && !isUrl(options.from)) {
    const dir = path.resolve(options.from);
    log(`reading SOTOPIA profiles from ${dir}`);
    return { ...verified(await importSotopia(dir)), dir, sources, cached: false };
  }
  const key = createHash('sha256').update(JSON.stringify(sources)).digest('hex').slice(0, 16);
  const root = path.join(options.cache ?? cacheDir(), 'sotopia');
  const dir = path.join(root, key);
  const marker = path.join(dir, 'SOURCES.json');
  if (!options.refresh && (await exists(marker))) {
    log(`using the cached download in ${dir} (from ${describe(sources)}; --refresh to download again)`);
    return { ...verified(await importSotopia(dir)), dir, sources, cached: true };
  }
  await mkdir(root, { recursive: true });
  const tmp = path.join(root, `.${key}.${process.pid}.${Date.now()}.partial`);
  await mkdir(tmp, { recursive: true });
  try {
    for (const [field, name] of Object.entries(SOTOPIA_FILES) as [keyof typeof SOTOPIA_FILES, string][]) {
      const bytes = await downloadTo(sources[field], path.join(tmp, name), options.fetchImpl);
      log(`fetched ${name} (${bytes} bytes) from ${sources[field]}`);
    }
    const imported = verified(await importSotopia(tmp));
    await writeFile(path.join(tmp, 'SOURCES.json'), `${JSON.stringify({ fetchedAt: new Date().toISOString(), sources }, null, 2)}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
    log(`cached in ${dir}`);
    // The importer read the temp directory; its locations in any later error would point there.
    return { ...imported, dir, sources, cached: false };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Throws unless the import holds SOTOPIA's published counts. */
function verified(r: SotopiaImport): SotopiaImport {
  const c = r.counts;
  const e = SOTOPIA_EXPECTED_COUNTS;
  const wrong = (Object.keys(e) as (keyof typeof e)[]).filter((k) => c[k] !== e[k]);
  if (wrong.length) {
    const detail = wrong.map((k) => `${k} ${c[k]} (expected ${e[k]})`).join(', ');
    throw new ScenarioError(ScenarioErrorCode.Counts, `not SOTOPIA's benchmark: ${detail}`, { file: 'sotopia' });
  }
  return r;
}

/** "github.com/sotopia-lab/sotopia-space@12c13d8 …" or the base URL, for the log. */
function describe(sources: Record<string, string>): string {
  const bases = new Set(Object.values(sources).map((u) => u.slice(0, u.lastIndexOf('/'))));
  return [...bases].join(', ');
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

