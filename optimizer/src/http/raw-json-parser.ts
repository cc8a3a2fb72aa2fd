import type { FastifyInstance, FastifyRequest } from 'fastify';
import { optimizerError } from '../errors.js';

/**
 * JSON bodies parsed from the raw bytes, which are kept: request signing hashes exactly what was sent (spec 001
 * ). The body limit applies while reading, so an oversized body answers 413 before it is parsed.
 */
export function installRawJsonParser(app: FastifyInstance): void {
  app.decorateRequest('rawBody', null);
  // Fastify's built-in JSON parser would take precedence and drop the bytes, so it is replaced, not shadowed.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseRawJson);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/i, { parseAs: 'buffer' }, parseRawJson);
}

function parseRawJson(
  request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, body?: unknown) => void,
): void {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  request.rawBody = raw;
  if (raw.length === 0) {
    // Clients send `content-type: application/json` on bodiless POSTs too: on a route that takes no body, an empty
    // body is no body; a route that takes one still refuses it.
    if (request.routeOptions.schema?.body === undefined) done(null, undefined);
    else done(optimizerError('invalid_request', 'empty JSON body'), undefined);
    return;
  }
  try {
    done(null, JSON.parse(raw.toString('utf8')));
  } catch {
    done(optimizerError('invalid_request', 'body is not valid JSON'), undefined);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact request bytes, for signature verification; null for bodyless requests. */
    rawBody: Buffer | null;
  }
}
