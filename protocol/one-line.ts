import * as z from 'zod';

/**
 * Characters that make a datum more than one line of text: C0 and C1 controls (newlines, escape), DEL, the
 * Unicode line and paragraph separators, and bidirectional overrides (which reorder what a reader sees).
 */
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * What another process reports about itself and Parley shows on one line (a client's name, version,
 * policy and host; a move's policy; a sampling parameter's name): refused at the edge when it carries a
 * line break or a control character, since no honest client needs one there and every place that shows it
 * (serve's lines, report tables, transcript headers) would otherwise have to guess where it ends.
 * Free text (moves, failure messages, parameter values such as a `\n` stop sequence) is not one of these:
 * it is escaped where it is shown.
 */
export const oneLine = (max: number) => z.string().max(max).refine((s) => !NOT_ONE_LINE.test(s), 'must be one line of text without control characters');
