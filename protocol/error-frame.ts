import type { ErrorCode } from './codes.js';
import type { ErrorFrame, Body } from './frames.js';

/**
 * The one builder of an `error` frame body (stamped by the sender): a code from the table, a message
 * capped to what the frame schema allows, and `re` only when the offending frame had an id.
 */
export function errorFrame(code: ErrorCode, message: string, re?: string): Body<ErrorFrame> {
  const body: Body<ErrorFrame> = { type: 'error', code, message: message.slice(0, 2000) };
  if (re !== undefined) body.re = re.slice(0, 64);
  return body;
}
