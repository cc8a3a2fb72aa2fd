import Fastify from 'fastify';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { installJsonBodyParser } from './json-body-parser.js';
import { zodSchemaController } from './zod-schemas.js';

const json = { 'content-type': 'application/json' };

async function build() {
  const app = Fastify({ schemaController: zodSchemaController });
  installJsonBodyParser(app);
  app.post('/actions/run', async (request) => ({ body: request.body ?? null }));
  app.delete('/things/:id', async (request) => ({ body: request.body ?? null }));
  app.post('/things', { schema: { body: z.object({ name: z.string() }) } }, async (request) => ({
    body: request.body,
  }));
  await app.ready();
  return app;
}

describe('the JSON body parser', () => {
  const ready = build();
  afterAll(async () => (await ready).close());

  it('reads an empty JSON body as no body on POST and DELETE routes that take none', async () => {
    const app = await ready;
    for (const [method, url] of [
      ['POST', '/actions/run'],
      ['DELETE', '/things/1'],
    ] as const) {
      const response = await app.inject({ method, url, headers: json, payload: '' });
      expect([response.statusCode, response.json()]).toEqual([200, { body: null }]);
    }
  });

  it('still parses a JSON body, and still refuses an empty one where the route takes a body', async () => {
    const app = await ready;
    const parsed = await app.inject({ method: 'POST', url: '/things', headers: json, payload: '{"name":"a"}' });
    expect([parsed.statusCode, parsed.json()]).toEqual([200, { body: { name: 'a' } }]);
    const empty = await app.inject({ method: 'POST', url: '/things', headers: json, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('FST_ERR_CTP_EMPTY_JSON_BODY');
  });

  it('refuses malformed JSON and prototype poisoning as fastify does', async () => {
    const app = await ready;
    const truncated = await app.inject({ method: 'POST', url: '/actions/run', headers: json, payload: '{"a":' });
    expect(truncated.json().code).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
    const poisoned = await app.inject({
      method: 'POST',
      url: '/actions/run',
      headers: json,
      payload: '{"__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});
