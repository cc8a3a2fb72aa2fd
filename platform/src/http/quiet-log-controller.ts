import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Per-request access lines cost two pino writes per call on the hot path and carry nothing the spend record and the
 * metrics do not already hold. This controller drops the "incoming" line, logs completions only at debug level, and
 * keeps every error and 5xx at full level.
 */
export class QuietLogController extends LogController {
  override incomingRequest(): void {
    // intentionally silent: see the class comment
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || reply.statusCode >= 500) {
      reply.log.error(
        { res: reply, err: error, responseTime: reply.elapsedTime, url: request.url.split('?')[0] },
        'request failed',
      );
      return;
    }
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
