import { readFileSync } from 'node:fs';

/** A file's text, or the one line a command prints when it could not be read. */
export type TextRead = { ok: true; text: string } | { ok: false; message: string };

/**
 * Reads a file a user named (an experiment, claim or study file) as UTF-8. A failure is a returned
 * message, `FILE: cannot read (why)`, never a throw: loaders of user files report every mistake as one
 * line. `why` is the error's message by default; `code` gives only its code (`ENOENT`) where the message
 * would repeat the path.
 */
export function readTextFile(file: string, why: 'message' | 'code' = 'message'): TextRead {
  try {
    return { ok: true, text: readFileSync(file, 'utf8') };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, message: `${file}: cannot read (${why === 'code' ? (e.code ?? e.message) : e.message})` };
  }
}
