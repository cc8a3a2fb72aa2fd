import { adapters } from '../../providers/adapters.js';
import type { ProviderInstance } from '../../providers/provider-types.js';
import { isPlainObject, parseJson } from '../../providers/translate/parse-wire.js';
import { upstreamSourceHeaders } from '../../providers/upstream/header-policy.js';
import { UpstreamUnreachable } from '../../providers/upstream/upstream-client.js';
import type { Selection } from '../../routing/resolve-route.js';
import type { InferenceDeps } from '../inference-deps.js';
import type { LaneReport, LaneScope, Sent } from '../lane-report.js';
import { forwardOpaque } from '../relay-opaque.js';
import { readBounded } from '../upstream-body.js';
import { upstreamUnreachableError } from '../upstream-error.js';
import { billOutputLines } from './bill-output-lines.js';
import { batchNotFound, ownedBatch } from './batch.store.js';
import { OutputLineReader } from './output-lines.js';
import { gatewayError, relayedError } from '../../errors.js';

const unsupported = (provider: ProviderInstance, endpoint: string) =>
  gatewayError(
    'unsupported_by_provider',
    `Provider "${provider.slug}" (${provider.type}) does not serve ${endpoint}; batches pass through to OpenAI-family providers only.`,
  );

/** What the batch output download uses: the batch store, the provider that ran the batch, the upstream, the metering stage. */
export type BatchOutputLaneDeps = Pick<
  InferenceDeps,
  'batches' | 'clock' | 'logger' | 'meter' | 'providers' | 'routing' | 'sleep' | 'throttle' | 'upstream'
>;

/**
 * `GET /v1/batches/{id}/output`: the output file of a batch this key created, fetched from the provider that ran it
 * (the batch's `output_file_id`, then that file's content) and relayed byte for byte as it streams, while each JSONL
 * line is read for its usage. Every line becomes one spend row billed to the batch's creator, once: a second
 * download, here or on another replica, bills nothing more. The download itself is the call's own row, with no
 * tokens, so the lines are not counted twice.
 */
export async function runBatchOutput(
  deps: BatchOutputLaneDeps,
  scope: LaneScope,
  batchId: string,
): Promise<LaneReport> {
  const { request, reply, signal } = scope;
  const endpoint = new URL(request.url, 'http://gateway.invalid').pathname;
  let selection: Selection | null = null;
  let sent: Sent | null = null;
  const report = (end: LaneReport['end']): LaneReport => ({
    call: { endpoint, body: undefined },
    billingMode: 'api-key',
    selection,
    sent,
    attempts: 1,
    end,
  });
  try {
    const owner = await ownedBatch(deps.batches, batchId, request.gw.identity?.keyId);
    const provider = deps.providers.get(owner.provider);
    if (!provider)
      throw gatewayError(
        'provider_not_configured',
        `Provider "${owner.provider}", which ran batch ${batchId}, is no longer configured.`,
      );
    const chosen: Selection = { provider, model: '' };
    selection = chosen;
    reply.header('x-gw-provider', provider.slug);
    if (provider.family !== 'openai') throw unsupported(provider, endpoint);
    sent = { selection: chosen, at: deps.clock.now() };
    const outputFileId = await outputFileOf(deps, provider, batchId, signal);
    await deps.batches.rememberFiles(owner.keyId, [outputFileId]);
    const lines = new OutputLineReader();
    const target = adapters[provider.type].target(
      provider,
      { kind: 'passthrough', path: `/files/${encodeURIComponent(outputFileId)}/content`, search: '' },
      null,
    );
    const relayed = await forwardOpaque(deps, reply, {
      url: target.url,
      method: 'GET',
      headers: { ...target.headers, 'accept-encoding': 'identity' },
      provider: { slug: provider.slug, family: provider.family },
      signal,
      onSend: (at) => (sent = { selection: chosen, at }),
      tap: (chunk) => lines.push(chunk),
    });
    // A download cut short may end in half a line: the whole lines before the cut are billed, the rest on a later
    // download. Lines only come from a successful answer (the tap sees nothing else), so a provider error bills none.
    if (relayed.errorCode === null) lines.end();
    await billOutputLines({ deps, owner, lines: lines.lines, request });
    return report({ kind: 'relayed', relayed });
  } catch (thrown) {
    return report({ kind: 'failed', thrown });
  }
}

/** The batch's `output_file_id` from the provider; a batch with no output yet is a clear 409, not a relay. */
async function outputFileOf(
  deps: Pick<InferenceDeps, 'upstream'>,
  provider: ProviderInstance,
  batchId: string,
  signal: AbortSignal,
): Promise<string> {
  const target = adapters[provider.type].target(
    provider,
    { kind: 'passthrough', path: `/batches/${encodeURIComponent(batchId)}`, search: '' },
    null,
  );
  let response;
  try {
    response = await deps.upstream.send({
      url: target.url,
      method: 'GET',
      headers: { ...target.headers, accept: 'application/json', 'accept-encoding': 'identity' },
      signal,
    });
  } catch (error) {
    if (error instanceof UpstreamUnreachable && !signal.aborted) throw upstreamUnreachableError(provider.slug);
    throw error;
  }
  const raw = await readBounded(response.body);
  if (response.status === 404) throw batchNotFound(batchId);
  if (response.status >= 400) {
    throw relayedError({
      status: response.status >= 500 ? response.status : 502,
      code: `upstream_${response.status}`,
      message: `Provider "${provider.slug}" answered HTTP ${response.status} when asked for batch ${batchId}. This is not a gateway failure.`,
      headers: upstreamSourceHeaders(provider.slug, response.status),
    });
  }
  const batch = parseJson(raw.toString('utf8'));
  const outputFileId = isPlainObject(batch) ? batch.output_file_id : undefined;
  if (typeof outputFileId === 'string' && outputFileId.length > 0) return outputFileId;
  const status = isPlainObject(batch) && typeof batch.status === 'string' ? batch.status : 'unknown';
  throw gatewayError(
    'batch_output_not_ready',
    `Batch ${batchId} has no output yet (status "${status}"); download it once the batch has completed.`,
  );
}
