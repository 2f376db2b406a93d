import * as z from 'zod';

/**
 * An id a provider hands back for a file, batch or job. Untrusted provider output that Parley sends back
 * in request paths (`/batches/<id>`, `/files/<id>/content`), writes into run.json and prints: letters,
 * digits and `._:-` only, so no id can climb a path, carry a terminal escape or span lines. Every
 * provider's ids fit (OpenAI's `batch_…`/`file-…`, Mistral's UUIDs).
 */
export const ProviderId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/, 'not a provider id (letters, digits and ._:- only, at most 200)');
