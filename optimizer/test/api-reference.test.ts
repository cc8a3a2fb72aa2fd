import { apiReferenceDrift } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { testApp } from './support/test-app.js';

describe('the optimizer API reference (docs/api/optimizer.md)', () => {
  it('matches the OpenAPI document the optimizer publishes (GW_UPDATE_API_REFERENCE=1 regenerates it)', async () => {
    const { app } = await testApp();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const { expected, actual } = await apiReferenceDrift(
      document,
      new URL('../../docs/api/optimizer.md', import.meta.url),
      'optimizer/test/api-reference.test.ts',
    );
    expect(expected).toBe(actual);
  });
});
