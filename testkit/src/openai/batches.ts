import { buildReply } from '../core/reply.js';
import type { RecordedRequest } from '../core/request-log.js';
import type { IdSource } from '../core/ids.js';
import { chatCompletionJson, summarizeChatRequest } from './chat-completions.js';

type Json = Record<string, unknown>;

/** What a files or batches request answers: status and a JSON (or JSONL) body. */
export interface StoreAnswer {
  status: number;
  body: string;
  contentType?: string;
}

interface StoredFile {
  object: Json;
  content: string;
}

const unixSeconds = (): number => Math.floor(Date.now() / 1000);
const json = (status: number, body: unknown): StoreAnswer => ({ status, body: JSON.stringify(body) });
const invalid = (
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
): StoreAnswer => json(status, { error: { message, type: 'invalid_request_error', param, code } });

const FILE_PATH = /^\/v1\/files\/([^/]+)(\/content)?$/;
const BATCH_PATH = /^\/v1\/batches\/([^/]+)(\/cancel)?$/;
const BATCH_ENDPOINTS = new Set(['/v1/chat/completions', '/v1/responses', '/v1/embeddings', '/v1/completions']);

/**
 * The Files and Batch APIs as OpenAI runs them, in memory: `POST /v1/files` (multipart, purpose `batch`), list, get,
 * delete and content; `POST /v1/batches`, list, get and cancel. A batch moves one step per retrieval
 * (`validating` → `in_progress` → `completed`), so a client polls it to completion as it would the real API; when it
 * completes, every input line is answered like a chat completion and the output file holds one JSONL line per
 * request: `{id, custom_id, response: {status_code, request_id, body}, error}`.
 */
export class FilesAndBatches {
  private readonly files = new Map<string, StoredFile>();
  private readonly batches = new Map<string, Json>();

  constructor(private readonly ids: IdSource) {}

  /** Whether this store answers the request; file content of an id it does not hold is left to the caller. */
  handles(request: RecordedRequest): boolean {
    if (request.path === '/v1/files' || request.path === '/v1/batches') return true;
    const file = FILE_PATH.exec(request.path);
    if (file) return file[2] === undefined || this.files.has(decodeURIComponent(file[1] ?? ''));
    return BATCH_PATH.test(request.path);
  }

  async answer(request: RecordedRequest): Promise<StoreAnswer> {
    if (request.path === '/v1/files')
      return request.method === 'POST'
        ? this.upload(request)
        : request.method === 'GET'
          ? this.list([...this.files.values()].map((file) => file.object))
          : notAllowed(request);
    if (request.path === '/v1/batches')
      return request.method === 'POST'
        ? this.createBatch(request.json)
        : request.method === 'GET'
          ? this.list([...this.batches.values()].reverse())
          : notAllowed(request);
    const file = FILE_PATH.exec(request.path);
    if (file) return this.fileRequest(request, decodeURIComponent(file[1] ?? ''), file[2] !== undefined);
    const batch = BATCH_PATH.exec(request.path);
    const id = decodeURIComponent(batch?.[1] ?? '');
    const found = this.batches.get(id);
    if (!found) return invalid(404, `No batch found with id '${id}'.`);
    if (batch?.[2] !== undefined) return request.method === 'POST' ? this.cancel(found) : notAllowed(request);
    return request.method === 'GET' ? json(200, this.advance(found)) : notAllowed(request);
  }

  private async upload(request: RecordedRequest): Promise<StoreAnswer> {
    const contentType = String(request.headers['content-type'] ?? '');
    if (!contentType.startsWith('multipart/form-data'))
      return invalid(
        400,
        "Invalid file format. Expected a multipart/form-data request with fields 'file' and 'purpose'.",
      );
    const form = await new Request('http://simulator.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: request.body,
    })
      .formData()
      .catch(() => null);
    const purpose = form?.get('purpose');
    const file = form?.get('file');
    if (typeof purpose !== 'string')
      return invalid(400, "Missing required parameter: 'purpose'.", 'purpose', 'missing_required_parameter');
    if (!file || typeof file === 'string')
      return invalid(400, "Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
    const content = await file.text();
    if (purpose === 'batch' && !content.split('\n').every((line) => line.trim() === '' || isJsonObject(line))) {
      return invalid(400, 'Invalid file format for Batch API. Must be .jsonl', 'file', 'invalid_file_format');
    }
    return json(200, this.store(content, file.name || 'upload.jsonl', purpose).object);
  }

  private store(content: string, filename: string, purpose: string): StoredFile {
    const id = this.ids.next('file-', 22);
    const stored = {
      object: {
        id,
        object: 'file',
        bytes: Buffer.byteLength(content),
        created_at: unixSeconds(),
        filename,
        purpose,
        status: 'processed',
        status_details: null,
      },
      content,
    };
    this.files.set(id, stored);
    return stored;
  }

  private fileRequest(request: RecordedRequest, id: string, content: boolean): StoreAnswer {
    const stored = this.files.get(id);
    if (!stored) return invalid(404, `No such File object: ${id}`, 'id');
    if (content)
      return request.method === 'GET'
        ? { status: 200, body: stored.content, contentType: 'application/octet-stream' }
        : notAllowed(request);
    if (request.method === 'DELETE') {
      this.files.delete(id);
      return json(200, { id, object: 'file', deleted: true });
    }
    return request.method === 'GET' ? json(200, stored.object) : notAllowed(request);
  }

  private createBatch(body: unknown): StoreAnswer {
    if (!isObject(body)) return invalid(400, 'We could not parse the JSON body of your request.');
    const inputFileId = body.input_file_id;
    if (typeof inputFileId !== 'string')
      return invalid(
        400,
        "Missing required parameter: 'input_file_id'.",
        'input_file_id',
        'missing_required_parameter',
      );
    if (typeof body.endpoint !== 'string' || !BATCH_ENDPOINTS.has(body.endpoint))
      return invalid(400, `Invalid value for 'endpoint': ${String(body.endpoint)}.`, 'endpoint', 'invalid_value');
    if (body.completion_window !== '24h')
      return invalid(
        400,
        "Invalid value for 'completion_window': must be '24h'.",
        'completion_window',
        'invalid_value',
      );
    const input = this.files.get(inputFileId);
    if (!input) return invalid(404, `No such File object: ${inputFileId}`, 'input_file_id');
    const now = unixSeconds();
    const batch: Json = {
      id: this.ids.next('batch_', 24),
      object: 'batch',
      endpoint: body.endpoint,
      errors: null,
      input_file_id: inputFileId,
      completion_window: '24h',
      status: 'validating',
      output_file_id: null,
      error_file_id: null,
      created_at: now,
      in_progress_at: null,
      expires_at: now + 86_400,
      completed_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata: isObject(body.metadata) ? body.metadata : null,
    };
    this.batches.set(String(batch.id), batch);
    return json(200, batch);
  }

  /** One step per retrieval: validating → in_progress → completed (the output written), cancelling → cancelled. */
  private advance(batch: Json): Json {
    if (batch.status === 'validating') Object.assign(batch, { status: 'in_progress', in_progress_at: unixSeconds() });
    else if (batch.status === 'in_progress') this.complete(batch);
    else if (batch.status === 'cancelling') Object.assign(batch, { status: 'cancelled', cancelled_at: unixSeconds() });
    return batch;
  }

  private complete(batch: Json): void {
    const input = this.files.get(String(batch.input_file_id))?.content ?? '';
    const lines = input
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Json);
    const output = lines.map((line) => JSON.stringify(this.answerLine(line))).join('\n');
    const file = this.store(output.length > 0 ? `${output}\n` : '', `${String(batch.id)}_output.jsonl`, 'batch_output');
    Object.assign(batch, {
      status: 'completed',
      completed_at: unixSeconds(),
      output_file_id: file.object.id,
      request_counts: { total: lines.length, completed: lines.length, failed: 0 },
    });
  }

  private answerLine(line: Json): Json {
    const body = isObject(line.body) ? line.body : {};
    const model = typeof body.model === 'string' ? body.model : 'gpt-4o-mini';
    const reply = buildReply(summarizeChatRequest(body, model), undefined, this.ids, 'call_');
    const answer = JSON.parse(chatCompletionJson(reply, this.ids.next('chatcmpl-', 29), unixSeconds())) as Json;
    return {
      id: this.ids.next('batch_req_', 24),
      custom_id: line.custom_id ?? null,
      response: { status_code: 200, request_id: this.ids.next('req_', 32), body: answer },
      error: null,
    };
  }

  private cancel(batch: Json): StoreAnswer {
    if (
      batch.status === 'completed' ||
      batch.status === 'failed' ||
      batch.status === 'expired' ||
      batch.status === 'cancelled'
    ) {
      return invalid(409, `Cannot cancel a batch with status '${String(batch.status)}'.`);
    }
    Object.assign(batch, { status: 'cancelling', cancelling_at: unixSeconds() });
    return json(200, batch);
  }

  private list(data: Json[]): StoreAnswer {
    return json(200, {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: false,
    });
  }
}

function notAllowed(request: RecordedRequest): StoreAnswer {
  return invalid(405, `Method ${request.method} is not allowed for ${request.path}.`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonObject(line: string): boolean {
  try {
    return isObject(JSON.parse(line));
  } catch {
    return false;
  }
}
