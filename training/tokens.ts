import { providerNamed, type ChatMessage } from '../llm/index.js';
import { modelRefOf } from '../protocol/index.js';

/** Counts the tokens of a chat example for a base model: exactly where Parley has the model's tokenizer. */
export interface TokenCounter {
  count(messages: readonly ChatMessage[]): number;
  /** `cl100k_base` / `o200k_base` (exact), or `estimate` (~4 characters a token). */
  readonly method: string;
}

/** Tokens the chat format adds: a few per message (role, separators) and the reply priming (OpenAI's accounting). */
const PER_MESSAGE = 3;
const PRIMING = 3;

/** The estimate for models whose tokenizer Parley does not ship (Mistral's): ~4 characters a token. */
export const ESTIMATE: TokenCounter = {
  method: 'estimate',
  count: (messages) => messages.reduce((n, m) => n + PER_MESSAGE + 1 + Math.ceil(m.content.length / 4), PRIMING),
};

/** The encoding Parley ships for a `provider:model` base (its provider's `tokenEncoding`), or null. */
function encodingFor(base: string): 'cl100k_base' | 'o200k_base' | null {
  const ref = modelRefOf(base);
  return (ref && providerNamed(ref.provider)?.tokenEncoding(ref.model)) ?? null;
}

/** Entries kept by `memoized` before it starts over (a bound on memory, not on correctness). */
const MEMO_LIMIT = 50_000;

/**
 * Counts per distinct text: an export repeats the same messages many times (a seat's system text in every
 * one of its examples, roles, shared openings), and BPE over them was most of an export's time. Counting
 * message by message is what makes this exact: a message's count never depends on its neighbours.
 */
function memoized(count: (text: string) => number): (text: string) => number {
  const seen = new Map<string, number>();
  return (text) => {
    let n = seen.get(text);
    if (n === undefined) {
      if (seen.size >= MEMO_LIMIT) seen.clear();
      n = count(text);
      seen.set(text, n);
    }
    return n;
  };
}

/**
 * Where a text may be cut so that its count is the sum of its pieces' counts: at a letter that follows a
 * newline that follows a non-space character. Both encodings' pre-tokenizers (cl100k_base's and
 * o200k_base's split patterns) end a piece there whether or not the text goes on: the newline is a piece of
 * its own or ends the punctuation piece before it, nothing joins it to the letter, and nothing before it
 * looks further ahead than that letter. A paper prompt holds the whole history and grows by a few lines a
 * turn: cut into lines, each is encoded once per export instead of once per later turn
 * (training/tokens.test.ts compares whole and piecewise counts on prompts and on adversarial text).
 */
const PIECE_CUT = /(?<=\S\n)(?=\p{L})/u;

/** The count of `text` as the sum of its pieces' (`PIECE_CUT`), each counted through `count`. */
export function countByPieces(text: string, count: (piece: string) => number): number {
  if (!text.includes('\n')) return count(text);
  let n = 0;
  for (const piece of text.split(PIECE_CUT)) n += count(piece);
  return n;
}

/** Special-token strings in a text count as the plain text they are (never refused, never a control token). */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The counter for `base` (`provider:model`): OpenAI's own BPE ranks through `gpt-tokenizer` (pure JS, loaded
 * only when needed; the same counts as OpenAI's tiktoken, about ten times faster than `js-tiktoken` on a
 * paper-size export) for OpenAI models, else the estimate. A text that contains `<|endoftext|>` or another
 * special-token string (a model's reply can) is counted as text: the default encoders refuse it with an
 * error, which would end an export over one message.
 */
export async function tokenCounterFor(base: string): Promise<TokenCounter> {
  const encoding = encodingFor(base);
  if (!encoding) return ESTIMATE;
  const { encode } = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  const piece = memoized((text: string) => encode(text, AS_TEXT).length);
  const tokens = memoized((text: string) => countByPieces(text, piece));
  return {
    method: encoding,
    count: (messages) => messages.reduce((n, m) => n + PER_MESSAGE + tokens(m.role) + tokens(m.content), PRIMING),
  };
}
