/**
 * Example files ship model ids a user must fill in (`examples/agents-ft.yaml`: `…::REPLACE-ME`). Sent as
 * is, such a run fails on every call, or worse, an OpenAI-compatible server that ignores the model name
 * answers with another model; so a spec still holding the placeholder is refused before anything runs.
 */
const PLACEHOLDER = /REPLACE[-_ ]?ME/i;

/** Why `spec` cannot run (it still holds the example's placeholder), or null. */
export function placeholderSpecProblem(spec: string): string | null {
  if (!PLACEHOLDER.test(spec)) return null;
  return `'${spec}' still holds the example's placeholder model id: put in your model's id (a fine-tuned one is printed by \`parley finetune status <job>\`)`;
}
