import type { FastifyInstance } from 'fastify';
import { isPlainObject, parseJson } from '../../providers/translate/parse-wire.js';
import type { InferenceDeps } from '../inference-deps.js';
import { meteredLane, type MeteredLaneDeps } from '../metered-lane.js';
import { runPassthrough, type PassthroughLaneDeps } from '../run-passthrough.js';
import { refusedReport } from './refused-report.js';
import { gatewayError } from '../../errors.js';

const security = [{ clientKey: [] }];
const schema = {
  tags: ['inference'],
  summary:
    "Files (upload, list, get, delete, content): passthrough to OpenAI-family providers; another key's file is not found",
  security,
};

const fileNotFound = (fileId: string) => gatewayError('not_found', `No such File object: ${fileId}`);

/** What the Files routes use: the metered passthrough lane, and the batch store for who owns which file. */
export type FileRoutesDeps = MeteredLaneDeps & PassthroughLaneDeps & Pick<InferenceDeps, 'batches'>;

/**
 * The Files API, passed through to OpenAI-family providers only. The provider's account is the organization's, so
 * the gateway keeps which key owns a file it saw (an upload through it, a batch's output and error files) and answers
 * another key as the provider answers for a file that does not exist; files it never saw pass through as before.
 */
export function fileRoutes(app: FastifyInstance, deps: FileRoutesDeps): void {
  app.route({
    method: ['GET', 'POST'],
    url: '/v1/files',
    schema,
    handler: meteredLane(deps, (scope) => {
      const keyId = scope.request.gw.identity?.keyId;
      return runPassthrough(deps, scope, {
        requiresFamily: 'openai',
        beforeRelay: async (raw) => {
          const answer = parseJson(raw.toString('utf8'));
          if (keyId === undefined || !isPlainObject(answer)) return undefined;
          if (scope.request.method === 'POST') {
            if (typeof answer.id === 'string') await deps.batches.rememberFiles(keyId, [answer.id]);
            return undefined;
          }
          if (!Array.isArray(answer.data)) return undefined;
          const ids = answer.data.flatMap((entry) =>
            isPlainObject(entry) && typeof entry.id === 'string' ? [entry.id] : [],
          );
          const hidden = await deps.batches.othersFiles(keyId, ids);
          return Buffer.from(
            JSON.stringify({
              ...answer,
              data: answer.data.filter(
                (entry) => !(isPlainObject(entry) && typeof entry.id === 'string' && hidden.has(entry.id)),
              ),
            }),
          );
        },
      });
    }),
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: '/v1/files/*',
    schema,
    handler: meteredLane(deps, async (scope) => {
      const keyId = scope.request.gw.identity?.keyId;
      const fileId = decodeURIComponent((scope.request.params as { '*': string })['*'].split('/')[0] ?? '');
      try {
        if (keyId !== undefined && (await deps.batches.othersFiles(keyId, [fileId])).size > 0)
          return refusedReport(scope, fileNotFound(fileId));
      } catch (thrown) {
        return refusedReport(scope, thrown);
      }
      return runPassthrough(deps, scope, { requiresFamily: 'openai' });
    }),
  });
}
