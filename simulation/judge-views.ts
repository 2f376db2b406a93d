import { JudgeView } from '../protocol/index.js';
import type { NaturalnessForm } from './definition.js';
import { definitionOf } from './protocols.js';

/**
 * SOTOPIA's reformat model: `format_bad_output` and `format_bad_output_for_script` default to
 * gpt-3.5-turbo (its code pins that name to gpt-3.5-turbo-0613, which OpenAI has since retired; name
 * the dated model with `--reformat-model` where it is still served). Generators under a protocol whose
 * seats reformat the SOTOPIA way, and judges in a view that repairs replies, use it by default.
 */
export const SOTOPIA_REFORMAT_MODEL = 'gpt-3.5-turbo';
export const SOTOPIA_REFORMAT_SPEC = `openai:${SOTOPIA_REFORMAT_MODEL}`;

/**
 * SOTOPIA's reformat model for a seat or judge of `provider` (an LLM provider's registry entry,
 * llm/providers/): that model on the provider's own endpoint and key when the provider serves it
 * (`paperReformat: 'sotopia-model'`, OpenAI's API), else null (the model itself reformats: SOTOPIA's
 * default only exists on OpenAI's API). Which provider serves it is the registry's to say, not a name test.
 */
export function sotopiaReformatFor(provider: { readonly name: string; readonly paperReformat: 'sotopia-model' | 'own' }): string | null {
  return provider.paperReformat === 'sotopia-model' ? `${provider.name}:${SOTOPIA_REFORMAT_MODEL}` : null;
}

/** What each judge view is (evaluator/judge/prompt.ts builds the requests from it). */
export interface JudgeViewFacts {
  /** SOTOPIA's judge information and form: one user message, the format asked in the text, no structured output. */
  readonly sotopia: boolean;
  /** Whether an unreadable reply gets one reformat request (SOTOPIA's `format_bad_output`); structured output needs none. */
  readonly reformat: boolean;
  /**
   * The temperature of that reformat request: SOTOPIA's `format_bad_output` passes none, so its chain ran
   * at `obtain_chain`'s default, 0.7 (the judge itself at 0); null: the judge's own temperature.
   */
  readonly reformatTemperature: number | null;
  /** The dry run's words for it. */
  readonly words: string;
  /** What the simulation card says a full-background judge in this view sees. */
  readonly sees: string;
  /** The tag of a panel judged in this view, beside its spec in tables; null for the run's own view. */
  readonly tag: string | null;
}

export const JUDGE_VIEW_FACTS: Readonly<Record<JudgeView, JudgeViewFacts>> = {
  // The paper's judge replies in free text that SOTOPIA repaired with one reformat request.
  paper: {
    sotopia: true,
    reformat: true,
    reformatTemperature: 0.7,
    words: "the paper view (SOTOPIA's judge information only)",
    sees: "the paper view: SOTOPIA's judge information only (scenario with judge-only text, both bios with secrets, both goals, Turn #k transcript)",
    tag: 'paper view',
  },
  // Parley's judge answers with structured output: nothing to repair.
  parley: {
    sotopia: false,
    reformat: false,
    reformatTemperature: null,
    words: "Parley's view (relationship, every profile field, task data)",
    sees: "Parley's full view: both goals and secrets, the relationship and its story, every profile field, private task data and judge-only text (more than SOTOPIA's judge had)",
    tag: null,
  },
};

/**
 * The naturalness question's forms (`parley compare`, the annotation page), named like the judge views:
 * `paper` asks appendix E's question with the context the paper's annotators had, in SOTOPIA's transcript
 * form, one user message with the format in the text; `parley` asks Parley's question with structured output.
 */
export const NATURALNESS_FORMS: Readonly<Record<NaturalnessForm, { readonly appendixE: boolean }>> = {
  paper: { appendixE: true },
  parley: { appendixE: false },
};

/** The view a judge uses when nothing chose one: the run protocol's scoring default. */
export function defaultJudgeView(protocol: unknown): JudgeView {
  return definitionOf(protocol).scoring.judgeView;
}

/**
 * The view `parley eval` uses: the flag, else the one the run recorded (run.json's `config.judgeView`),
 * else the run protocol's default. A flag that names no view is refused (null); a recorded value that
 * names none (a hand-edited run.json) is ignored like an absent one.
 */
export function resolveJudgeView(flag: string | undefined, recorded: unknown, protocol: unknown): JudgeView | null {
  if (flag !== undefined) {
    const chosen = JudgeView.safeParse(flag);
    return chosen.success ? chosen.data : null;
  }
  const fromRun = JudgeView.safeParse(recorded);
  return fromRun.success ? fromRun.data : defaultJudgeView(protocol);
}
