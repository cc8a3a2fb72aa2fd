import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '@gw/platform';
import type { z } from 'zod';
import {
  connectDirectiveResponse,
  directiveAckBody,
  directiveAckResponse,
  directiveKinds,
  originalDirectiveKinds,
  type DirectiveKind,
} from '../seats/seat-directive.schema.js';
import type { SeatDirectiveStore } from '../seats/seat-directive.store.js';
import { seatOf } from '../seats/seat.js';
import { connectErrors } from './connect-errors.js';
import { identityOf } from '../../chain/identity/identity-of.js';
import { connectErrorResponse } from './connect.schema.js';

export interface ConnectDirectiveOptions {
  directives: SeatDirectiveStore;
}

const security = [{ clientKey: [] }];
const tags = ['connect'];
const kindsHeader = 'x-gw-directive-kinds';
const knownKinds: ReadonlySet<string> = new Set(directiveKinds);

/** The kinds a client says it runs (comma list); absent means the three original kinds; unknown names are ignored. */
export function advertisedKinds(header: string | string[] | undefined): DirectiveKind[] {
  if (header === undefined) return [...originalDirectiveKinds];
  const names = (Array.isArray(header) ? header.join(',') : header).split(',').map((name) => name.trim());
  return [...new Set(names.filter((name): name is DirectiveKind => knownKinds.has(name)))];
}

/** `GET /connect/directive` and `POST /connect/directive/ack`, the caller's own seat only. */
export async function connectDirectiveRoutes(plain: FastifyInstance, options: ConnectDirectiveOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { directives } = options;

  app.get(
    '/connect/directive',
    {
      schema: {
        tags,
        security,
        summary: 'The next directive for the caller’s seat',
        description: `Returns \`{directive:{id, kind, tool?}}\` or \`{}\`. Declare the kinds the client runs in \`${kindsHeader}\` (comma list; absent means \`reapply_config\`, \`remint\`, \`revert\`); other kinds are skipped and stay queued. A directive is re-delivered on every fetch until acked.`,
        response: { 200: connectDirectiveResponse, 401: connectErrorResponse, 503: connectErrorResponse },
      },
    },
    async (request): Promise<z.infer<typeof connectDirectiveResponse>> => {
      let next;
      try {
        next = await directives.deliver(seatOf(identityOf(request)), advertisedKinds(request.headers[kindsHeader]));
      } catch (error) {
        request.log.warn({ err: error }, 'directive read failed');
        throw connectErrors.seatStoreUnavailable();
      }
      return next
        ? { directive: { id: next.id, kind: next.kind, ...(next.tool === null ? {} : { tool: next.tool }) } }
        : {};
    },
  );

  app.post(
    '/connect/directive/ack',
    {
      schema: {
        tags,
        security,
        summary: 'Close a directive of the caller’s seat with its result',
        description:
          'A `revert` acked `ok` also marks the seat offboarded. Acking a directive already closed answers its recorded result. 404 `directive_not_found` for an unknown id or another seat’s directive.',
        body: directiveAckBody,
        response: {
          200: directiveAckResponse,
          400: connectErrorResponse,
          401: connectErrorResponse,
          404: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request): Promise<z.infer<typeof directiveAckResponse>> => {
      const body = request.body;
      let acked;
      try {
        acked = await directives.ack(seatOf(identityOf(request)), body.id, body.result);
      } catch (error) {
        request.log.warn({ err: error }, 'directive ack failed');
        throw connectErrors.seatStoreUnavailable();
      }
      if (!acked) throw connectErrors.directiveNotFound();
      return {
        status: 'ok',
        id: acked.record.id,
        result: acked.record.result ?? body.result,
        offboarded: acked.offboarded,
      };
    },
  );
}
