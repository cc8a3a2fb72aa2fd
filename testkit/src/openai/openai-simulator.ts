import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RecordedRequest } from '../core/request-log.js';
import { sendBody } from '../core/responder.js';
import {
  acceptsKey,
  answerScripted,
  bearerToken,
  headerValue,
  startSimulator,
  type SimulatorContext,
  type SimulatorHandle,
  type SimulatorOptions,
} from '../core/simulator.js';
import { FilesAndBatches } from './batches.js';
import { DEFAULT_FILE_CONTENT_BYTES, sendFileContent } from './file-content.js';
import { MISSING_KEY_MESSAGE, maskKey, renderOpenAiError } from './openai-errors.js';
import { runOperation, type Operation } from './openai-operations.js';
import { RESPONSES_MISSING_MODEL } from './responses-request.js';

export interface OpenAiSimulatorOptions extends SimulatorOptions {
  /** Embedding size when the request names no `dimensions` (default 1536; 3072 for text-embedding-3-large). */
  embeddingDimensions?: number;
  /** Size of every `GET /v1/files/{id}/content` body (default 1 MiB; content from `simulatedFileContent(id, size)`). */
  fileContentBytes?: number;
}

export const DEFAULT_OPENAI_MODELS: readonly string[] = [
  'gpt-4o',
  'gpt-4o-mini',
  'o3-mini',
  'gpt-3.5-turbo-instruct',
  'text-embedding-3-small',
  'text-embedding-3-large',
];

// Sent on every response, like the real API; built once.
const BASE_HEADERS: OutgoingHttpHeaders = Object.freeze({
  'openai-version': '2020-10-01',
  'openai-organization': 'simulator',
  'openai-processing-ms': '1',
  'x-ratelimit-limit-requests': '10000',
  'x-ratelimit-remaining-requests': '9999',
  'x-ratelimit-reset-requests': '6ms',
  'x-ratelimit-limit-tokens': '30000000',
  'x-ratelimit-remaining-tokens': '29999000',
  'x-ratelimit-reset-tokens': '2ms',
});

type Route =
  | { kind: 'operation'; operation: Operation; deployment?: string }
  | { kind: 'models' }
  | { kind: 'model'; id: string }
  | { kind: 'file-content'; id: string }
  | { kind: 'files-and-batches' };

const OPERATION_PATHS: Record<string, Operation> = {
  '/v1/chat/completions': 'chat',
  '/v1/completions': 'completions',
  '/v1/embeddings': 'embeddings',
  '/v1/responses': 'responses',
};
const FILE_CONTENT_PATH = /^\/v1\/files\/([^/]+)\/content$/;
const AZURE_PATH = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|completions|embeddings)$/;
const AZURE_OPERATIONS: Record<string, Operation> = {
  'chat/completions': 'chat',
  completions: 'completions',
  embeddings: 'embeddings',
};

function findRoute(request: RecordedRequest): Route | undefined {
  if (request.method === 'POST') {
    const operation = OPERATION_PATHS[request.path];
    if (operation) return { kind: 'operation', operation };
    const azure = AZURE_PATH.exec(request.path);
    const azureOperation = azure ? AZURE_OPERATIONS[azure[2] ?? ''] : undefined;
    if (azure && azureOperation)
      return { kind: 'operation', operation: azureOperation, deployment: decodeURIComponent(azure[1] ?? '') };
  }
  if (request.method === 'GET') {
    if (request.path === '/v1/models') return { kind: 'models' };
    if (request.path.startsWith('/v1/models/'))
      return { kind: 'model', id: decodeURIComponent(request.path.slice('/v1/models/'.length)) };
    const file = FILE_CONTENT_PATH.exec(request.path);
    if (file) return { kind: 'file-content', id: decodeURIComponent(file[1] ?? '') };
  }
  return undefined;
}

/**
 * An OpenAI-compatible provider: Chat Completions (JSON and SSE, tool calls), the Responses API (JSON and SSE,
 * function calls), legacy Completions, Embeddings (float and base64), model listing, files and batches (`batches.ts`;
 * the content of a file it does not hold is generated, `file-content.ts`), and the Azure OpenAI deployment paths (`api-key` header, `api-version`).
 */
export async function startOpenAiSimulator(options: OpenAiSimulatorOptions = {}): Promise<SimulatorHandle> {
  const models = options.models ?? DEFAULT_OPENAI_MODELS;
  let store: FilesAndBatches | undefined;
  return startSimulator(
    options,
    (request, response, context) =>
      handle(request, response, context, options, models, (store ??= new FilesAndBatches(context.ids))),
    '/v1',
  );
}

async function handle(
  request: RecordedRequest,
  response: ServerResponse,
  context: SimulatorContext,
  options: OpenAiSimulatorOptions,
  models: readonly string[],
  store: FilesAndBatches,
): Promise<void> {
  const requestId = context.ids.next('req_', 32);
  const route: Route | undefined = store.handles(request) ? { kind: 'files-and-batches' } : findRoute(request);
  const azure = route?.kind === 'operation' && route.deployment !== undefined;
  const headers: OutgoingHttpHeaders = azure
    ? { ...BASE_HEADERS, 'x-request-id': requestId, 'apim-request-id': requestId }
    : { ...BASE_HEADERS, 'x-request-id': requestId };
  const reject = (status: number, body: string): Promise<void> =>
    sendBody(response, context.baseTurn(), status, headers, body);

  if (!route) {
    return reject(
      404,
      renderOpenAiError(404, { message: `Invalid URL (${request.method} ${request.path})`, code: null }),
    );
  }
  if (azure) {
    if (!request.query['api-version'])
      return reject(404, JSON.stringify({ error: { code: '404', message: 'Resource not found' } }));
    const key = headerValue(request.headers['api-key']) ?? bearerToken(headerValue(request.headers.authorization));
    if (!acceptsKey(options.apiKey, key)) return reject(401, AZURE_ACCESS_DENIED);
  } else {
    const key = bearerToken(headerValue(request.headers.authorization));
    if (key === undefined) return reject(401, renderOpenAiError(401, { message: MISSING_KEY_MESSAGE, code: null }));
    if (!acceptsKey(options.apiKey, key)) {
      return reject(
        401,
        renderOpenAiError(401, {
          message: `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        }),
      );
    }
  }

  if (route.kind === 'models') return reject(200, JSON.stringify({ object: 'list', data: models.map(modelObject) }));
  if (route.kind === 'model') {
    if (models.includes(route.id)) return reject(200, JSON.stringify(modelObject(route.id)));
    return reject(404, renderOpenAiError(404, { message: `The model '${route.id}' does not exist`, param: 'model' }));
  }

  const turn = context.takeTurn(request);
  if (await answerScripted(response, turn, headers, renderOpenAiError)) return;
  if (route.kind === 'files-and-batches') {
    const answer = await store.answer(request);
    return sendBody(response, turn, answer.status, headers, answer.body, answer.contentType);
  }
  if (route.kind === 'file-content')
    return sendFileContent(response, turn, headers, route.id, options.fileContentBytes ?? DEFAULT_FILE_CONTENT_BYTES);
  const body = request.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return sendBody(
      response,
      turn,
      400,
      headers,
      renderOpenAiError(400, {
        message:
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
      }),
    );
  }
  const json = body as Record<string, unknown>;
  const model = typeof json.model === 'string' ? json.model : route.deployment;
  if (model === undefined) {
    return sendBody(
      response,
      turn,
      400,
      headers,
      renderOpenAiError(
        400,
        route.operation === 'responses' ? RESPONSES_MISSING_MODEL : { message: 'you must provide a model parameter' },
      ),
    );
  }
  await runOperation(route.operation, {
    request,
    response,
    context,
    turn,
    headers,
    body: json,
    model,
    embeddingDimensions: options.embeddingDimensions,
  });
}

const AZURE_ACCESS_DENIED = JSON.stringify({
  error: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
});

function modelObject(id: string): Record<string, unknown> {
  return { id, object: 'model', created: 1_715_367_049, owned_by: 'system' };
}
