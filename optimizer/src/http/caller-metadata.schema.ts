import {
  cacheWriteRequestSchema,
  optimizeRequestSchema,
  optimizeResponseRequestSchema,
  optimizerMetadataSchema,
  recallRequestSchema,
} from '@gw/contracts';
import { storableTextOptional } from './storable-text.js';

const shape = optimizerMetadataSchema.shape;

/**
 * The protocol's metadata with every owner and session id limited to storable text. These ids become stash row
 * owners, recall filters and cache partitions (joined with U+0000 separators), so a U+0000 in one would fail the
 * durable write, or let one caller's partition spell another's. Refusing them here, as the 400 any malformed body
 * gets, is simpler and safer than escaping or hashing owners, which would change every stored owner column and
 * every recall query. The gateway binds these ids from keys, so only a foreign adapter can send such a value.
 */
export const callerMetadataSchema = optimizerMetadataSchema
  .extend({
    user: storableTextOptional(shape.user),
    team: storableTextOptional(shape.team),
    tenant: storableTextOptional(shape.tenant),
    gatewaySessionId: storableTextOptional(shape.gatewaySessionId),
    cacheScope: storableTextOptional(shape.cacheScope),
    sessionId: storableTextOptional(shape.sessionId),
    session: storableTextOptional(shape.session),
  })
  .describe(optimizerMetadataSchema.description ?? '');

const metadata = callerMetadataSchema.optional();

/** The hook bodies that carry caller metadata, as the optimizer validates and documents them. */
export const optimizeBodySchema = optimizeRequestSchema.extend({ metadata });
export const optimizeResponseBodySchema = optimizeResponseRequestSchema.extend({ metadata });
export const cacheWriteBodySchema = cacheWriteRequestSchema.extend({ metadata });
export const recallBodySchema = recallRequestSchema.extend({
  metadata: metadata.describe(recallRequestSchema.shape.metadata.description ?? ''),
});
