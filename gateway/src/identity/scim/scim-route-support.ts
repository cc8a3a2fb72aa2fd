import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { scimErrorSchema } from './protocol/scim-error.js';

export interface IdParams {
  id: string;
}

/** Where the identity provider reached this server: the base of every `meta.location` and `Location`. */
export function scimBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/scim/v2`;
}

const scimError = z
  .object({
    schemas: z.array(z.literal(scimErrorSchema)),
    status: z.string(),
    detail: z.string(),
    scimType: z.string().optional(),
  })
  .describe('RFC 7644 §3.12 error');
const resource = z.looseObject({ schemas: z.array(z.string()) }).describe('SCIM resource (application/scim+json)');
const errorResponses = { 400: scimError, 401: scimError, 404: scimError, 409: scimError, 503: scimError };

/** OpenAPI description of a SCIM route; bodies are SCIM resources, validated by the handlers (loose, as IdPs send more). */
export function scimRouteSchema(
  summary: string,
  status: 200 | 201 | 204 = 200,
): { tags: string[]; security: Array<Record<string, string[]>>; summary: string; response: Record<number, z.ZodType> } {
  const response: Record<number, z.ZodType> = {
    ...errorResponses,
    [status]: status === 204 ? z.null().describe('No content') : resource,
  };
  return { tags: ['scim'], security: [{ scimBearer: [] }], summary, response };
}
