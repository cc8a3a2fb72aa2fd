import { apiReferenceDrift } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { startTestGateway } from './helpers.js';

describe('the gateway API reference (docs/api/gateway.md)', () => {
  it('matches the OpenAPI document the gateway publishes (GW_UPDATE_API_REFERENCE=1 regenerates it)', async () => {
    const gateway = await startTestGateway();
    try {
      const document = (await gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const { expected, actual } = await apiReferenceDrift(
        document,
        new URL('../../docs/api/gateway.md', import.meta.url),
        'gateway/test/api-reference.test.ts',
      );
      expect(expected).toBe(actual);
    } finally {
      await gateway.close();
    }
  });
});
