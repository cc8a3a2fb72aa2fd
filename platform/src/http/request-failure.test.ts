import { errorCodes } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { normalizeRequestError } from './request-failure.js';
import { RequestValidationError } from './zod-schemas.js';

/** What pg and PGlite throw when the database answers: a SQLSTATE in `code` and a `severity`. */
function sqlError(code: string): Error {
  return Object.assign(new Error(`sqlstate ${code}`), { code, severity: 'ERROR' });
}

function stackOverflow(): RangeError {
  return new RangeError('Maximum call stack size exceeded');
}

describe('normalizeRequestError', () => {
  it.each([
    [
      'a fastify schema failure',
      new errorCodes.FST_ERR_VALIDATION('body/model must be string'),
      'invalid_request',
      400,
      'invalid_request',
    ],
    ['a body that is not JSON', new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), 'invalid_json', 400, 'invalid_json'],
    ['an empty JSON body', new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY(), 'invalid_json', 400, 'invalid_json'],
    ['a body over the limit', new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), 'body_too_large', 413, 'body_too_large'],
    [
      'a content type with no parser',
      new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/x'),
      'unsupported_media_type',
      415,
      'unsupported_media_type',
    ],
    ['a URL the router cannot decode', new errorCodes.FST_ERR_BAD_URL('%zz'), 'client_error', 400, 'invalid_request'],
    ['a bug', new TypeError('x is undefined'), 'internal', 500, 'internal_error'],
    ['a thrown non-error', 'oops', 'internal', 500, 'internal_error'],
  ])('classifies %s', (_name, thrown, kind, status, code) => {
    expect(normalizeRequestError(thrown)).toMatchObject({ kind, status, code, error: thrown });
  });

  it('passes a coded error through with its status, code and headers', () => {
    const coded = new AppError({
      status: 429,
      code: 'rate_limited',
      message: 'slow down',
      headers: { 'retry-after': '3' },
    });
    expect(normalizeRequestError(coded)).toEqual({
      kind: 'coded',
      error: coded,
      status: 429,
      code: 'rate_limited',
      message: 'slow down',
      headers: { 'retry-after': '3' },
    });
  });

  it('answers a stack overflow on a deeply nested body with a coded 400, never a 500', () => {
    const failure = normalizeRequestError(stackOverflow());
    expect(failure).toMatchObject({
      kind: 'coded',
      status: 400,
      code: 'invalid_request',
      message: 'The request body is nested too deeply to process.',
    });
    expect(failure.error).toBeInstanceOf(AppError);
  });

  it('classifies a zod request validation error as an invalid request naming the field', () => {
    const failure = normalizeRequestError(
      new RequestValidationError('body', [{ code: 'custom', path: ['model'], message: 'Required', input: undefined }]),
    );
    expect(failure).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      code: 'invalid_request',
      message: 'body.model: Required',
    });
  });

  it('says the JSON body is not valid without echoing fastify internals', () => {
    expect(normalizeRequestError(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()).message).toBe(
      'The request body is not valid JSON.',
    );
  });

  it('names the service in the message of its own fault', () => {
    expect(normalizeRequestError(new Error('boom'), { service: 'gateway' }).message).toBe(
      'The gateway failed to handle the request.',
    );
  });

  it('treats store errors as faults unless the surface opts in', () => {
    expect(normalizeRequestError(sqlError('57P01')).kind).toBe('internal');
    expect(normalizeRequestError(sqlError('22P05')).kind).toBe('internal');
  });

  it('answers a store outage with a retryable 503 on a surface that opts in', () => {
    const options = { service: 'gateway', storeOutages: true };
    expect(normalizeRequestError(sqlError('57P01'), options)).toMatchObject({
      kind: 'store_unavailable',
      status: 503,
      code: 'unavailable',
      headers: { 'retry-after': '1' },
    });
    expect(
      normalizeRequestError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), options).kind,
    ).toBe('store_unavailable');
  });

  it('answers a value the store refused with a 400 on a surface that opts in', () => {
    expect(normalizeRequestError(sqlError('22P05'), { refusedValues: true })).toMatchObject({
      kind: 'value_refused',
      status: 400,
      code: 'invalid_request',
    });
    expect(normalizeRequestError(sqlError('23505'), { refusedValues: true }).kind).toBe('value_refused');
  });
});
