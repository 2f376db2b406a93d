import { ErrorCode } from '../../protocol/index.js';

/** Why a policy could not be created from its config (codes from the protocol's table). */
export const PolicyConfigCode = {
  UnknownSpec: ErrorCode.UnknownPolicy,
  Unavailable: ErrorCode.PolicyUnavailable,
} as const;

/** The one error class of policy creation: a code the CLI and the worker report, and the cause. */
export class PolicyConfigError extends Error {
  constructor(readonly code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PolicyConfigError';
  }
}
