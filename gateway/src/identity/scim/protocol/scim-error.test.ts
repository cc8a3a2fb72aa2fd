import { describe, expect, it } from 'vitest';
import { badRequest, notFound, ScimError, scimErrorBody, scimErrorSchema, uniquenessConflict } from './scim-error.js';

describe('SCIM error body', () => {
  it('renders the RFC 7644 §3.12 body with the status as a string and the scimType', () => {
    const body = scimErrorBody(new ScimError(400, 'The filter is empty.', 'invalidFilter'));
    expect(body).toEqual({
      schemas: [scimErrorSchema],
      status: '400',
      detail: 'The filter is empty.',
      scimType: 'invalidFilter',
    });
    expect(scimErrorSchema).toBe('urn:ietf:params:scim:api:messages:2.0:Error');
  });

  it('leaves scimType out when the error has none, as a 404 does', () => {
    const body = scimErrorBody(new ScimError(404, 'Resource 2819c223 not found'));
    expect(body).toEqual({ schemas: [scimErrorSchema], status: '404', detail: 'Resource 2819c223 not found' });
    expect('scimType' in body).toBe(false);
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  });

  it('is an Error with a name, so logs and instanceof checks see it', () => {
    const error = new ScimError(400, 'bad', 'invalidSyntax');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(ScimError);
    expect(error.name).toBe('ScimError');
    expect(error.message).toBe('bad');
  });
});

describe('SCIM error helpers', () => {
  it.each([
    ['badRequest', badRequest('no value', 'invalidValue'), 400, 'invalidValue'],
    ['notFound', notFound('User 42 not found'), 404, undefined],
    ['uniquenessConflict', uniquenessConflict('userName is taken'), 409, 'uniqueness'],
  ] as const)('%s builds status %i with scimType %s', (_name, error, status, scimType) => {
    expect(error).toBeInstanceOf(ScimError);
    expect(error.status).toBe(status);
    expect(error.scimType).toBe(scimType);
  });
});
