import { apiReferenceDrift } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { evidencePerTest } from './support.js';

describe('the evidence service API reference (docs/api/evidence.md)', () => {
  const service = evidencePerTest();

  it('matches the OpenAPI document the evidence service publishes (GW_UPDATE_API_REFERENCE=1 regenerates it)', async () => {
    const { app } = service();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const { expected, actual } = await apiReferenceDrift(
      document,
      new URL('../../docs/api/evidence.md', import.meta.url),
      'evidence/test/api-reference.test.ts',
    );
    expect(expected).toBe(actual);
  });
});
