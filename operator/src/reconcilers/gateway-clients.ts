import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { ManagementClient } from '../management/management-client.js';
import { objectName, serviceUrl } from '../gateway/stack-names.js';
import { readSecretValue, type GatewayClients } from './context.js';

export type ManagementClientFactory = (baseUrl: string, bearer: string) => ManagementClient;

export const operatorKeySecretKey = 'apiKey';

export function operatorKeySecretName(gateway: KubeObject): string {
  return objectName(gateway, 'operator-key');
}

/**
 * A Gateway's admin client: its in-cluster Service URL and the scoped `aak_` key the operator minted for itself and
 * keeps in a Secret (ARCHITECTURE.md "Operator"). Null until that key exists.
 */
export class KubeGatewayClients implements GatewayClients {
  constructor(
    private readonly api: KubeApi,
    private readonly factory: ManagementClientFactory,
  ) {}

  async forGateway(gateway: KubeObject): Promise<ManagementClient | null> {
    const key = await readSecretValue(this.api, gateway.metadata.namespace, {
      name: operatorKeySecretName(gateway),
      key: operatorKeySecretKey,
    });
    return key === null ? null : this.factory(serviceUrl(gateway, 'gateway'), key);
  }
}
