/**
 * The fine-tuning side of a provider (llm/providers/): which providers offer it is a property of their
 * registry entry (`Provider.finetune`), not a list kept here.
 */

/** A fine-tuning job as Parley reports it, whatever the provider's own shape. */
export interface FinetuneJob {
  /** The registry name of the provider that runs the job. */
  provider: string;
  id: string;
  /** The provider's status, normalised. */
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  /** The provider's own status word, as it said it. */
  rawStatus: string;
  baseModel: string;
  /** Set once the job succeeded: the model id to put in a policy spec. */
  fineTunedModel: string | null;
  trainingFile: string | null;
  validationFile: string | null;
  /** The provider's explanation when the job failed. */
  error: string | null;
}

/** A provider's status words for each of Parley's five job statuses (every status named, so none is forgotten). */
export type StatusWords = Readonly<Record<FinetuneJob['status'], readonly string[]>>;

/**
 * The part of a FinetuneJob every provider's job record names alike (an id, a status word, a base model):
 * the status is found among the provider's words, and a word it does not list (a provider added one)
 * counts as `running`, so `parley finetune --wait` keeps polling rather than stopping on it.
 */
export function jobHead(
  provider: string,
  words: StatusWords,
  j: { id: string; status: string; model: string },
): Pick<FinetuneJob, 'provider' | 'id' | 'status' | 'rawStatus' | 'baseModel'> {
  const status = (Object.keys(words) as FinetuneJob['status'][]).find((s) => words[s].includes(j.status)) ?? 'running';
  return { provider, id: j.id, status, rawStatus: j.status, baseModel: j.model };
}

/** An uploaded file. */
export interface UploadedFile {
  id: string;
  filename: string;
  bytes: number;
}

/** How a job trains: on chat examples (`supervised`) or on preference pairs (`dpo`, parley pairs). */
export type FinetuneMethod = 'supervised' | 'dpo';

/** A provider's files and fine-tuning APIs, as `parley finetune` uses them. */
export interface FinetuneApi {
  readonly provider: string;
  upload(file: string): Promise<UploadedFile>;
  create(o: { baseModel: string; trainingFile: string; validationFile?: string; suffix?: string; method?: FinetuneMethod }): Promise<FinetuneJob>;
  get(jobId: string): Promise<FinetuneJob>;
  /** The name a file was uploaded under, or null when the provider does not say. */
  filename(fileId: string): Promise<string | null>;
}

/** Where to reach a provider: base URL (as for chat: OpenAI's with `/v1`, Mistral's without) and key. */
export interface ProviderAccess {
  apiKey: string;
  baseURL?: string;
}
