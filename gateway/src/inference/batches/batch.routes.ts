import type { FastifyInstance } from 'fastify';
import { isPlainObject, parseJson } from '../../providers/translate/parse-wire.js';
import type { InferenceDeps } from '../inference-deps.js';
import { fileRoutes, type FileRoutesDeps } from './file.routes.js';
import { refusedReport } from './refused-report.js';
import { meteredLane } from '../metered-lane.js';
import { runPassthrough } from '../run-passthrough.js';
import { ownedBatch, type BatchOwner } from './batch.store.js';
import { runBatchOutput, type BatchOutputLaneDeps } from './run-batch-output.js';

const security = [{ clientKey: [] }];
const tags = ['inference'];

/**
 * The Files and Batch APIs: passed through to OpenAI-family providers only (a call routed elsewhere is a 400), a
 * batch's creator remembered so only their key reaches it and its output is billed to them per line
 * (`run-batch-output.ts`). Registered before the `/v1/*` catch-all, which would otherwise take these paths.
 */
export function batchRoutes(app: FastifyInstance, deps: FileRoutesDeps & BatchOutputLaneDeps): void {
  fileRoutes(app, deps);

  app.get(
    '/v1/batches',
    {
      schema: {
        tags,
        summary: 'List the batches this key created: passthrough to OpenAI-family providers, other batches left out',
        security,
      },
    },
    meteredLane(deps, (scope) =>
      runPassthrough(deps, scope, {
        requiresFamily: 'openai',
        beforeRelay: (raw) => onlyOwnBatches(deps, raw, scope.request.gw.identity?.keyId),
      }),
    ),
  );

  app.post(
    '/v1/batches',
    {
      schema: {
        tags,
        summary:
          'Create a batch: passthrough to OpenAI-family providers; the gateway remembers the creating key for per-line billing',
        security,
      },
    },
    meteredLane(deps, (scope) =>
      runPassthrough(deps, scope, {
        requiresFamily: 'openai',
        beforeRelay: async (raw, selection) => {
          const identity = scope.request.gw.identity;
          const batch = parseJson(raw.toString('utf8'));
          if (!identity || !isPlainObject(batch) || typeof batch.id !== 'string') return undefined;
          const endpoint = typeof batch.endpoint === 'string' ? batch.endpoint : null;
          await deps.batches.remember({
            batchId: batch.id,
            provider: selection.provider.slug,
            keyId: identity.keyId,
            keyType: identity.keyType,
            user: identity.user,
            team: identity.team,
            endpoint,
          });
          return undefined;
        },
      }),
    ),
  );

  // Another key's batch is answered exactly like an unknown one; a known batch goes to the provider that runs it.
  const passOwned = meteredLane(deps, async (scope) => {
    const { id } = scope.request.params as { id: string };
    let owner: BatchOwner;
    try {
      owner = await ownedBatch(deps.batches, id, scope.request.gw.identity?.keyId);
    } catch (thrown) {
      return refusedReport(scope, thrown);
    }
    const provider = deps.providers.get(owner.provider);
    // The batch's output and error files are its creator's: another key asking for them gets a 404.
    const rememberFiles = async (raw: Buffer) => {
      const batch = parseJson(raw.toString('utf8'));
      const files = isPlainObject(batch)
        ? [batch.output_file_id, batch.error_file_id].filter(
            (file): file is string => typeof file === 'string' && file.length > 0,
          )
        : [];
      await deps.batches.rememberFiles(owner.keyId, files);
      return undefined;
    };
    return runPassthrough(deps, scope, {
      requiresFamily: 'openai',
      beforeRelay: rememberFiles,
      ...(provider ? { provider } : {}),
    });
  });
  app.get(
    '/v1/batches/:id',
    {
      schema: { tags, summary: 'Retrieve a batch this key created: passthrough to OpenAI-family providers', security },
    },
    passOwned,
  );
  app.post(
    '/v1/batches/:id/cancel',
    { schema: { tags, summary: 'Cancel a batch this key created: passthrough to OpenAI-family providers', security } },
    passOwned,
  );
  app.get(
    '/v1/batches/:id/output',
    {
      schema: {
        tags,
        summary:
          "Download a batch's output (JSONL, streamed byte for byte); one spend row per line, billed once to the batch's creator",
        security,
      },
    },
    meteredLane(deps, (scope) => runBatchOutput(deps, scope, (scope.request.params as { id: string }).id)),
  );
}

/**
 * A provider's batch list holds every batch of the organization's account; a key sees only those it created. The
 * provider's paging cursors are kept, so a page may hold fewer batches than asked for while `has_more` goes on.
 */
async function onlyOwnBatches(
  deps: Pick<InferenceDeps, 'batches'>,
  raw: Buffer,
  keyId: string | undefined,
): Promise<Buffer | undefined> {
  const list = parseJson(raw.toString('utf8'));
  if (!isPlainObject(list) || !Array.isArray(list.data)) return undefined;
  const ids = list.data.flatMap((entry) => (isPlainObject(entry) && typeof entry.id === 'string' ? [entry.id] : []));
  const owned = keyId === undefined ? new Set<string>() : await deps.batches.ownedBy(keyId, ids);
  const data = list.data.filter((entry) => isPlainObject(entry) && typeof entry.id === 'string' && owned.has(entry.id));
  return Buffer.from(JSON.stringify({ ...list, data }));
}
