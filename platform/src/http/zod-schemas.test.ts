import Fastify from 'fastify';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { RequestValidationError, zodSchemaController } from './zod-schemas.js';

describe('zodSchemaController', () => {
  const app = Fastify({ schemaController: zodSchemaController });
  app.setErrorHandler((error, _request, reply) =>
    reply
      .code(400)
      .send(
        error instanceof RequestValidationError
          ? { part: error.part, message: error.message }
          : { unexpected: String(error) },
      ),
  );
  app.post(
    '/things/:id',
    {
      schema: {
        params: z.object({ id: z.coerce.number().int() }),
        body: z.object({ name: z.string().min(1), tags: z.array(z.string()).default([]) }),
        // A plain JSON schema is documentation only: nothing validates it.
        querystring: { type: 'object', properties: { dry: { type: 'boolean' } }, required: ['dry'] },
        response: { 200: z.object({ id: z.number(), name: z.string() }) },
      },
    },
    async (request) => ({ params: request.params, body: request.body, extra: 'serialised as is' }),
  );
  afterAll(() => app.close());

  it('hands the handler what the zod schemas parsed, coercions and defaults included', async () => {
    const response = await app.inject({ method: 'POST', url: '/things/7', payload: { name: 'kept' } });
    expect(response.statusCode).toBe(200);
    // The response schema documents the shape; JSON.stringify writes what the handler returned.
    expect(response.json()).toEqual({
      params: { id: 7 },
      body: { name: 'kept', tags: [] },
      extra: 'serialised as is',
    });
  });

  it.each([
    ['the body', '/things/7', { name: '' }, 'body', /^body\.name: /],
    ['a path parameter', '/things/seven', { name: 'x' }, 'params', /^params\.id: /],
  ])('refuses %s with a RequestValidationError naming the field', async (_, url, payload, part, message) => {
    const response = await app.inject({ method: 'POST', url, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ part });
    expect(response.json().message).toMatch(message);
  });
});
