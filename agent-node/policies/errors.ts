/** Why a policy could not be created from its config. */
export const PolicyConfigCode = {
  UnknownSpec: 'policy/unknown_spec',
  Unavailable: 'policy/unavailable',
} as const;

/** The one error class of policy creation: a code the CLI and the worker report, and the cause. */
export class PolicyConfigError extends Error {
  constructor(readonly code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PolicyConfigError';
  }
}
