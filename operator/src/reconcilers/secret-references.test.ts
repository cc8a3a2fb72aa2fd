import { crdDefinitions } from '@gw/contracts';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/kube-api.js';
import { referencedSecretNames, resourcesReferencingSecret } from './secret-references.js';

const gatewayRef = { name: 'gw' };
const gatewaySpec = {
  image: { repository: 'ghcr.io/example/gw' },
  version: '1.10.353',
  publicUrl: 'https://gw.example.com',
  database: { urlSecretRef: { name: 'db', key: 'url' } },
};
const resource = (kind: string, spec: unknown, name = 'r', namespace = 'team'): KubeObject => ({
  apiVersion: 'gw.dev/v1alpha1',
  kind,
  metadata: { name, namespace },
  spec,
});

describe('referencedSecretNames', () => {
  it.each([
    ['a Gateway names its database Secret', resource('Gateway', gatewaySpec), ['db']],
    [
      'a Gateway with Redis names both Secrets',
      resource('Gateway', { ...gatewaySpec, redis: { urlSecretRef: { name: 'redis', key: 'url' } } }),
      ['db', 'redis'],
    ],
    [
      'a Gateway reading both URLs from one Secret names it once',
      resource('Gateway', { ...gatewaySpec, redis: { urlSecretRef: { name: 'db', key: 'redis' } } }),
      ['db'],
    ],
    [
      'a Gateway does not name its image pull Secrets (only the kubelet reads them)',
      resource('Gateway', { ...gatewaySpec, image: { repository: 'ghcr.io/example/gw', pullSecrets: ['registry'] } }),
      ['db'],
    ],
    [
      'a ProviderKey names its key Secret',
      resource('ProviderKey', {
        gatewayRef,
        provider: 'openai',
        type: 'openai',
        secretRef: { name: 'openai-key', key: 'apiKey' },
      }),
      ['openai-key'],
    ],
    [
      'a UserCap without alerts names nothing',
      resource('UserCap', { gatewayRef, user: 'ada@example.com', maxUsd: '10.00' }),
      [],
    ],
    [
      'a UserCap with alerts names its webhook Secret',
      resource('UserCap', {
        gatewayRef,
        user: 'ada@example.com',
        maxUsd: '10.00',
        alerts: { thresholdsPercent: [80], webhookSecretRef: { name: 'slack', key: 'url' } },
      }),
      ['slack'],
    ],
    [
      'a ServiceKey names the Secret it writes the minted key to',
      resource('ServiceKey', { gatewayRef, name: 'ci', team: 'platform', secretName: 'ci-key' }),
      ['ci-key'],
    ],
    ['a RoutingConfig names nothing', resource('RoutingConfig', { gatewayRef, defaultProvider: 'openai' }), []],
    ['a DesktopPolicy names nothing', resource('DesktopPolicy', { gatewayRef, enabled: true }), []],
    [
      'a ProviderKey whose spec does not parse names nothing',
      resource('ProviderKey', { gatewayRef, provider: 'openai', type: 'openai', apiKey: 'sk-inline' }),
      [],
    ],
    [
      'a field merely called "name" elsewhere in the spec is not a Secret reference',
      resource('ServiceKey', { gatewayRef: { name: 'ci-key' }, name: 'ci-key', team: 'platform', secretName: 'out' }),
      ['out'],
    ],
    [
      'a kind the operator does not know names nothing',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team' }, data: { name: 'db' } },
      [],
    ],
  ])('%s', (_case, object, expected) => {
    expect(referencedSecretNames(object)).toEqual(expected);
  });

  // An empty answer must come from the kind's rule, not from a spec the table got wrong and that failed to parse.
  it('parses every spec in the table except the one meant to be invalid', () => {
    const specOf = (kind: string) => crdDefinitions.find((definition) => definition.kind === kind)!.spec;
    expect(specOf('RoutingConfig').safeParse({ gatewayRef, defaultProvider: 'openai' }).success).toBe(true);
    expect(specOf('DesktopPolicy').safeParse({ gatewayRef, enabled: true }).success).toBe(true);
    expect(specOf('UserCap').safeParse({ gatewayRef, user: 'ada@example.com', maxUsd: '10.00' }).success).toBe(true);
    expect(
      specOf('ProviderKey').safeParse({ gatewayRef, provider: 'openai', type: 'openai', apiKey: 'sk-inline' }).success,
    ).toBe(false);
  });
});

describe('resourcesReferencingSecret', () => {
  const secret = (name: string, namespace = 'team'): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace },
  });
  const providerKey = (name: string, secretName: string, namespace = 'team') =>
    resource(
      'ProviderKey',
      { gatewayRef, provider: name, type: 'openai', secretRef: { name: secretName, key: 'apiKey' } },
      name,
      namespace,
    );
  const candidates = [
    providerKey('openai', 'shared'),
    providerKey('mistral', 'shared'),
    providerKey('groq', 'other'),
    providerKey('openai', 'shared', 'elsewhere'),
  ];

  it.each([
    ['requeues every resource naming the Secret in its namespace', secret('shared'), ['team/openai', 'team/mistral']],
    ['ignores a Secret of the same name in another namespace', secret('other', 'elsewhere'), []],
    ['requeues nothing for a Secret nobody names', secret('unrelated'), []],
  ])('%s', (_case, changed, expected) => {
    expect(resourcesReferencingSecret(changed, candidates)).toEqual(expected);
  });
});
