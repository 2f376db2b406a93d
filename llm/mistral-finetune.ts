import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { jobHead, type FinetuneApi, type FinetuneJob, type ProviderAccess, type StatusWords } from './finetune-api.js';

type MistralJob = { id: string; status: string; model: string; fine_tuned_model?: string | null; training_files?: string[]; validation_files?: string[] | null; message?: string | null };

const STATUS: StatusWords = {
  queued: ['QUEUED', 'VALIDATING', 'VALIDATED'],
  running: ['STARTED', 'RUNNING'],
  succeeded: ['SUCCESS'],
  failed: ['FAILED', 'FAILED_VALIDATION'],
  cancelled: ['CANCELLED', 'CANCELLATION_REQUESTED'],
};

function job(j: MistralJob): FinetuneJob {
  return {
    ...jobHead('mistral', STATUS, j),
    fineTunedModel: j.fine_tuned_model ?? null,
    trainingFile: j.training_files?.[0] ?? null,
    validationFile: j.validation_files?.[0] ?? null,
    error: j.status.startsWith('FAILED') ? (j.message ?? j.status) : null,
  };
}

/**
 * Mistral: files through the official `@mistralai/mistralai` SDK; jobs through Mistral's REST routes
 * (`/v1/fine_tuning/jobs`), because SDK 2.x no longer has a fine-tuning jobs API — Mistral retired it on
 * its own platform (it answers 410 Gone, reported as such), while compatible servers may still offer it.
 */
export async function mistralFinetune(access: ProviderAccess): Promise<FinetuneApi> {
  const { Mistral } = await import('@mistralai/mistralai');
  const serverURL = access.baseURL?.replace(/\/+$/, '').replace(/\/v1$/, '');
  const client = new Mistral({ apiKey: access.apiKey, ...(serverURL ? { serverURL } : {}) });
  const root = serverURL ?? 'https://api.mistral.ai';
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<MistralJob> => {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: { authorization: `Bearer ${access.apiKey}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status === 410) throw new Error(`mistral: ${method} ${path}: 410 Gone — Mistral has retired its fine-tuning jobs API on this server`);
    if (!res.ok) throw new Error(`mistral: ${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as MistralJob;
  };
  return {
    provider: 'mistral',
    async upload(file) {
      const content = await readFile(file);
      const f = await client.files.upload({ file: { fileName: basename(file), content }, purpose: 'fine-tune' });
      return { id: f.id, filename: f.filename, bytes: f.sizeBytes };
    },
    async create(o) {
      return job(
        await call('POST', '/v1/fine_tuning/jobs', {
          model: o.baseModel,
          training_files: [{ file_id: o.trainingFile, weight: 1 }],
          ...(o.validationFile ? { validation_files: [o.validationFile] } : {}),
          ...(o.suffix ? { suffix: o.suffix } : {}),
          auto_start: true,
        }),
      );
    },
    async get(id) {
      return job(await call('GET', `/v1/fine_tuning/jobs/${encodeURIComponent(id)}`));
    },
    async filename(id) {
      return (await client.files.retrieve({ fileId: id })).filename ?? null;
    },
  };
}
