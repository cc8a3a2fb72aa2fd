import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codesByStatus, defineErrorCatalog, errorRaiser, errorResponseSchemas } from './error-catalog.js';
import { AppError } from './errors.js';

const catalog = defineErrorCatalog({
  invalid_request: { status: 400, envelope: 'error', message: 'the request is invalid' },
  unauthorized: { status: 401, envelope: 'error', message: 'missing or invalid bearer token' },
  admin_disabled: { status: 401, code: 'unauthorized', envelope: 'error', message: 'admin routes are disabled' },
  store_unavailable: {
    status: 503,
    envelope: 'error',
    message: 'the store is unavailable',
    retryable: true,
    headers: { 'retry-after': '1' },
  },
});
const raise = errorRaiser(catalog);

describe('error catalog', () => {
  it('raises an entry with its status, code, default message and retryability', () => {
    const error = raise('store_unavailable');
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 503,
      code: 'store_unavailable',
      message: 'the store is unavailable',
      retryable: true,
      headers: { 'retry-after': '1' },
    });
  });

  it('takes a call site’s own message, headers and details without losing the entry’s', () => {
    const error = raise('store_unavailable', 'the stash is unavailable', {
      headers: { 'x-extra': 'yes' },
      details: { requiredScope: 'a:b' },
    });
    expect(error).toMatchObject({
      status: 503,
      message: 'the stash is unavailable',
      headers: { 'retry-after': '1', 'x-extra': 'yes' },
      details: { requiredScope: 'a:b' },
    });
    expect(raise('invalid_request')).toMatchObject({ retryable: false, headers: {} });
  });

  it('answers with the shared wire code when an entry names one', () => {
    expect(raise('admin_disabled')).toMatchObject({
      status: 401,
      code: 'unauthorized',
      message: 'admin routes are disabled',
    });
  });

  it('groups the codes by status, each once, in catalog order', () => {
    expect([...codesByStatus(catalog)]).toEqual([
      [400, ['invalid_request']],
      [401, ['unauthorized']],
      [503, ['store_unavailable']],
    ]);
  });

  it('documents a route’s error responses: one envelope per status, described by its codes', () => {
    const envelope = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
    const responses = errorResponseSchemas(catalog, ['invalid_request', 'admin_disabled'], envelope);
    expect(Object.keys(responses)).toEqual(['400', '401']);
    expect(z.toJSONSchema(responses[401]).description).toBe('Codes: `unauthorized`.');
    expect(responses[400].safeParse({ error: { code: 'invalid_request', message: 'x' } }).success).toBe(true);
  });
});
