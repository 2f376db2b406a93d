/**
 * A setting the user gave that cannot take effect (a judge spec no client can be made for, a judge view
 * that does not exist, a run directory with nothing to record a batch in): the command refuses it as a
 * usage mistake, one line, exit 2 (cli/failure.ts), as it does its own flag errors.
 */
export class SettingsError extends Error {
  override name = 'SettingsError';
}
