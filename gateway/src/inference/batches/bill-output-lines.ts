import { isoInstant } from '@gw/platform';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SpendRecord } from '../../metering/spend-record.js';
import { costUsd } from '../../providers/pricing/cost.js';
import { lookupModel } from '../../providers/pricing/known-models.js';
import type { InferenceDeps } from '../inference-deps.js';
import type { BatchOwner } from './batch.store.js';
import type { OutputLine } from './output-lines.js';

/** The same batch line always gets the same row id, so a replayed write is dropped by the store as well. */
function lineSpendId(batchId: string, lineKey: string): string {
  const hex = createHash('sha256').update(`gw-batch-line\n${batchId}\n${lineKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * One content-free row for one output line, billed to the batch's creator. A batch line records no reasoning-effort
 * level (the output carries none, and the request it answered is not the gateway's to read).
 */
function lineRecord(
  owner: BatchOwner,
  line: OutputLine,
  input: {
    request: FastifyRequest;
    now: number;
    id: string;
    modelFacts: InferenceDeps['routing']['documents']['models'];
  },
): SpendRecord {
  const status = line.status ?? 200;
  const success = status >= 200 && status < 300;
  const prompt = line.usage?.inputTokens ?? 0;
  const completion = line.usage?.outputTokens ?? 0;
  return {
    id: input.id,
    ts: isoInstant(input.now),
    endpoint: owner.endpoint ?? '/v1/batches',
    method: 'POST',
    status,
    outcome: success ? 'success' : 'error',
    provider: owner.provider,
    model: line.model,
    reasoningEffort: null,
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: prompt + completion,
    cacheReadTokens: line.usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: line.usage?.cacheWriteTokens ?? 0,
    reasoningTokens: line.usage?.reasoningTokens ?? 0,
    usageEstimated: false,
    latencyMs: 0,
    upstreamLatencyMs: null,
    costUsd: line.usage && line.model ? costUsd(line.usage, lookupModel(line.model, input.modelFacts)) : 0,
    savingsUsd: 0,
    tokensSaved: 0,
    billingMode: 'api-key',
    user: owner.user,
    team: owner.team,
    keyId: owner.keyId,
    keyType: owner.keyType,
    stream: false,
    optimizationStatus: null,
    optimizationReason: null,
    optimizerLatencyMs: null,
    attempts: 1,
    target: line.model ? `${owner.provider}:${line.model}` : null,
    errorCode: success ? null : `upstream_${status}`,
    // The download's trace: every line's row points at the call that billed it.
    traceId: input.request.traceId,
    attribution: { properties: { batch_id: owner.batchId } },
  };
}

/**
 * Bills the lines of a downloaded batch output that no earlier download billed: claims them in the store (atomic
 * across replicas), then hands one row per claimed line to the metering stage. A store that cannot take the claim
 * leaves the lines unbilled and unclaimed, so the next download bills them; the relayed download is not undone.
 */
export async function billOutputLines(input: {
  deps: Pick<InferenceDeps, 'batches' | 'clock' | 'logger' | 'meter' | 'routing'>;
  owner: BatchOwner;
  lines: readonly OutputLine[];
  request: FastifyRequest;
}): Promise<void> {
  const { deps, owner } = input;
  const unique = new Map(input.lines.map((line) => [line.lineKey, line]));
  const ids = new Map([...unique.keys()].map((lineKey) => [lineKey, lineSpendId(owner.batchId, lineKey)]));
  let claimed: Set<string>;
  try {
    claimed = await deps.batches.claimLines(
      owner.batchId,
      [...ids].map(([lineKey, spendId]) => ({ lineKey, spendId })),
    );
  } catch (error) {
    deps.logger.error(
      { err: error, batchId: owner.batchId, lines: unique.size },
      'batch output lines not billed: the store refused the claim; the next download bills them',
    );
    return;
  }
  const now = deps.clock.now();
  const records = [...unique.values()]
    .filter((line) => claimed.has(line.lineKey))
    .map((line) =>
      lineRecord(owner, line, {
        request: input.request,
        now,
        id: ids.get(line.lineKey) ?? lineSpendId(owner.batchId, line.lineKey),
        modelFacts: deps.routing.documents.models,
      }),
    );
  deps.meter.recordLines(records);
}
