import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, zstdDecompress } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gatewayError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as the client sent it (after transfer decompression), for byte-faithful forwarding. */
    rawBody: Buffer | null;
  }
}

const decompressors: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
  zstd: promisify(zstdDecompress),
};

/** Request decompression at the edge, bounded so a small bomb cannot expand past the body limit. */
async function decode(request: FastifyRequest, body: Buffer, limit: number): Promise<Buffer> {
  const encoding = request.headers['content-encoding']?.toString().trim().toLowerCase();
  if (!encoding || encoding === 'identity') return body;
  const decompress = decompressors[encoding];
  if (!decompress) throw gatewayError('unsupported_content_encoding', `Content-Encoding ${encoding} is not supported.`);
  try {
    return await decompress(body, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw gatewayError('body_too_large', 'The decompressed request body is too large.');
    throw gatewayError('invalid_content_encoding', `The request body is not valid ${encoding}.`);
  }
}

/**
 * JSON bodies are parsed once and also kept raw, so same-family traffic can go upstream byte for byte. Any other
 * content type (file and audio uploads on passthrough routes) is kept raw only.
 */
export function installInferenceBodyParsers(app: FastifyInstance, bodyLimit: number): void {
  app.decorateRequest('rawBody', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/*+json'],
    { parseAs: 'buffer' },
    async (request: FastifyRequest, payload: Buffer) => {
      const body = await decode(request, payload, bodyLimit);
      request.rawBody = body;
      if (body.length === 0) return undefined;
      try {
        return JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        throw gatewayError('invalid_json');
      }
    },
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, async (request: FastifyRequest, payload: Buffer) => {
    // A route with a JSON body schema (chat, messages, embeddings…) cannot read another type: say so, rather than
    // report the body as missing (`curl -d` without a content type sends a form).
    if (request.routeOptions.schema?.body !== undefined) {
      throw gatewayError('unsupported_media_type');
    }
    request.rawBody = await decode(request, payload, bodyLimit);
    return undefined;
  });
}
