import { RunErrorCode } from '../../protocol/codes.js';

/** Run codes live in the one registry (protocol/codes.ts); re-exported for the run's modules. */
export { RunErrorCode };

/** A run-level failure with a message fit for the terminal. */
export class RunError extends Error {
  constructor(readonly code: RunErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunError';
  }
}
