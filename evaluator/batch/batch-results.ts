import * as z from 'zod';
import { JudgeErrorCode, type Usage } from '../../protocol/index.js';
import { terminalSafe } from '../../text/terminal.js';
import { usageFrom } from '../../llm/sdk-client.js';

/**
 * Reads a batch's output (or error) file: OpenAI's batch output lines,
 * `{ id, custom_id, response: { status_code, request_id, body }, error }`. The file comes from the
 * provider and is untrusted: every line goes through zod, a `custom_id` is only looked up among the ids
 * Parley sent (anything else is counted and dropped), and a line too long to be a judge reply is skipped.
 */

/** A judge reply runs to a few kB; a line this long is not one (guards memory, not totals). */
const MAX_LINE_CHARS = 2_000_000;

const OutputLine = z.object({
  custom_id: z.string().max(1000),
  response: z.object({ status_code: z.number().int(), body: z.unknown() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

const ChatCompletionBody = z.object({
  model: z.string().max(200).optional(),
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish() }), finish_reason: z.string().nullish() })).min(1),
  usage: z.unknown().optional(),
});

/** One batched request's answer: the reply as a live call would have returned it, or why there is none. */
export type BatchAnswer = { ok: true; content: string; usage: Usage; model: string | null } | { ok: false; message: string };

export interface BatchOutput {
  answers: Map<string, BatchAnswer>;
  /** Lines naming a custom_id Parley did not send. */
  unknownIds: number;
  /** Lines that are not batch output lines. */
  unreadable: number;
  /** Lines answering a custom_id already answered: that request counts as failed (which answer is its own?). */
  duplicates?: number;
  /** Why an output or error file could not be read at all (`judge/batch_output`): its requests count as failed. */
  fileErrors?: string[];
}

/** The part of a provider's batch interface that reads a finished batch's files. */
interface BatchFiles {
  content(fileId: string): Promise<string>;
}

/**
 * Reads a finished batch's output and error files into one BatchOutput. A file that cannot be read (gone,
 * an id the provider refuses) is reported with its code and leaves its requests unanswered, so they are
 * retried live or in a new batch instead of wedging every rerun.
 */
export async function collectBatchOutput(api: BatchFiles, files: ReadonlyArray<string | null>, sent: ReadonlySet<string>): Promise<BatchOutput> {
  const into: BatchOutput = { answers: new Map(), unknownIds: 0, unreadable: 0, duplicates: 0, fileErrors: [] };
  for (const file of files) {
    if (!file) continue;
    let text: string;
    try {
      text = await api.content(file);
    } catch (err) {
      into.fileErrors!.push(`${JudgeErrorCode.BatchOutput}: output file ${JSON.stringify(file.slice(0, 100))} could not be read (${terminalSafe((err as Error).message).slice(0, 200)})`);
      continue;
    }
    readBatchOutput(text, sent, into);
  }
  return into;
}

/** Adds the lines of one output or error file to `into`; a custom_id answered twice counts as failed. */
export function readBatchOutput(text: string, sent: ReadonlySet<string>, into: BatchOutput = { answers: new Map(), unknownIds: 0, unreadable: 0 }): BatchOutput {
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    if (raw.length > MAX_LINE_CHARS) {
      into.unreadable++;
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      into.unreadable++;
      continue;
    }
    const line = OutputLine.safeParse(json);
    if (!line.success) {
      into.unreadable++;
      continue;
    }
    const id = line.data.custom_id;
    if (!sent.has(id)) {
      into.unknownIds++;
      continue;
    }
    if (into.answers.has(id)) {
      into.duplicates = (into.duplicates ?? 0) + 1;
      into.answers.set(id, { ok: false, message: 'the batch output answered this request more than once' });
    } else into.answers.set(id, answerOf(line.data));
  }
  return into;
}

function answerOf(line: z.infer<typeof OutputLine>): BatchAnswer {
  const res = line.response;
  if (line.error || !res) return { ok: false, message: `batch request failed: ${line.error?.code ?? 'error'}: ${line.error?.message ?? 'no response'}`.slice(0, 500) };
  if (res.status_code !== 200) {
    const msg = (res.body as { error?: { message?: unknown } } | null)?.error?.message;
    return { ok: false, message: `batch request failed: HTTP ${res.status_code}${typeof msg === 'string' ? `: ${msg}` : ''}`.slice(0, 500) };
  }
  const body = ChatCompletionBody.safeParse(res.body);
  const content = body.success ? body.data.choices[0]!.message.content : undefined;
  if (!body.success || typeof content !== 'string') return { ok: false, message: 'batch request answered without message content' };
  return { ok: true, content, usage: usageFrom(body.data.usage), model: body.data.model ?? null };
}

/** One log line for what a batch's output held besides answers (unknown ids, unreadable or repeated lines, unreadable files). */
export function reportOutput(log: (line: string) => void, batchId: string, output: BatchOutput): void {
  for (const e of output.fileErrors ?? []) log(`batch ${terminalSafe(batchId)}: ${e}; its requests count as failed`);
  if (output.unknownIds || output.unreadable || output.duplicates) {
    log(`batch ${terminalSafe(batchId)}: ${output.unknownIds} lines with an unknown custom_id, ${output.unreadable} unreadable lines and ${output.duplicates ?? 0} repeated answers ignored (a request answered twice counts as failed)`);
  }
}
