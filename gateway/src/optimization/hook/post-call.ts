import type { Logger } from '@gw/platform';
import { answersEndpoint } from './client-shapes.js';
import type { OptimizerClient } from './optimizer-client.js';
import type { Optimization } from './pre-call-hook.js';

export interface PostCallInput {
  endpoint: string;
  optimization: Optimization | undefined;
  /** The body that went upstream (context for output-stage strategies). */
  request: Record<string, unknown> | undefined;
  /** The successful JSON response, in the client's format. */
  response: Record<string, unknown>;
  metadata: Record<string, string>;
  user: string | null;
  team: string | null;
  sessionId: string | null;
}

function metadataOf(input: PostCallInput): Record<string, string> {
  const scope = input.optimization?.cache.scope;
  return {
    ...input.metadata,
    ...(scope ? { cacheScope: scope } : {}),
    ...(input.user ? { user: input.user } : {}),
    ...(input.team ? { team: input.team } : {}),
    ...(input.sessionId ? { gatewaySessionId: input.sessionId } : {}),
  };
}

/**
 * The post-call hooks for a non-streamed success: `optimize-response` may rewrite the response with
 * output-stage strategies (fail-open: any error keeps the provider's response), and a cache-eligible response is
 * written back through `/v1/cache` off the request path.
 */
export async function runPostCall(
  optimizer: OptimizerClient | null,
  logger: Logger,
  input: PostCallInput,
): Promise<Record<string, unknown> | null> {
  const optimization = input.optimization;
  if (!optimizer || !optimization || (optimization.status !== 'applied' && optimization.status !== 'skipped'))
    return null;
  const metadata = metadataOf(input);
  if (optimization.cache.eligible && optimization.cache.key) {
    optimizer
      .cache({
        cacheKey: optimization.cache.key,
        response: input.response,
        ttlSeconds: optimization.cache.ttlSeconds ?? 3600,
        metadata,
        ...(optimization.cache.shadowOnly ? { shadowOnly: true } : {}),
        ...(input.request ? { request: input.request } : {}),
      })
      .catch((error: unknown) => logger.debug({ err: error }, 'cache write-back failed'));
  }
  try {
    const result = await optimizer.optimizeResponse({
      endpoint: input.endpoint,
      response: input.response,
      metadata,
      ...(input.request ? { request: input.request } : {}),
    });
    // Only a body the client can read replaces the provider's answer; anything else keeps it.
    return result.decisions.length > 0 &&
      typeof result.response === 'object' &&
      result.response !== null &&
      answersEndpoint(result.response, input.endpoint)
      ? result.response
      : null;
  } catch {
    return null;
  }
}

/** A streamed answer can still feed the semantic cache's shadow tier: the reassembled message, `shadowOnly`. */
export function writeStreamShadow(optimizer: OptimizerClient | null, logger: Logger, input: PostCallInput): void {
  const optimization = input.optimization;
  if (!optimizer || !optimization?.cache.eligible || !optimization.cache.key) return;
  optimizer
    .cache({
      cacheKey: optimization.cache.key,
      response: input.response,
      ttlSeconds: optimization.cache.ttlSeconds ?? 3600,
      metadata: metadataOf(input),
      shadowOnly: true,
      ...(input.request ? { request: input.request } : {}),
    })
    .catch((error: unknown) => logger.debug({ err: error }, 'shadow cache write failed'));
}
