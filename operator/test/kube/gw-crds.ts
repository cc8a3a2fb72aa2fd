import type { KubeConfig } from '@kubernetes/client-node';
import { crdDefinitions } from '@gw/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { crdManifest } from '../../src/gen/crd-yaml.js';
import { kubeRequest } from './kube-request.js';

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

interface CrdStatus {
  status?: { conditions?: { type: string; status: string }[] };
}

/** Applies the generated gw.dev CRDs (server-side apply) and waits until the server serves them (Established). */
export async function installGwCrds(kubeConfig: KubeConfig): Promise<void> {
  for (const definition of crdDefinitions) {
    const manifest = crdManifest(definition);
    const name = `${definition.plural}.gw.dev`;
    // Server-side apply is idempotent: a request cut by a timeout on a loaded machine is simply sent again.
    const apply = () =>
      kubeRequest(
        kubeConfig,
        'PATCH',
        `${crdPath}/${name}?fieldManager=gw-test&force=true`,
        manifest,
        'application/apply-patch+yaml',
      );
    const response = await apply().catch(apply);
    if (response.status >= 300) throw new Error(`applying ${name} failed (${response.status}): ${response.text}`);
  }
  for (const definition of crdDefinitions) {
    const name = `${definition.plural}.gw.dev`;
    for (let attempt = 0; ; attempt += 1) {
      const { body } = await kubeRequest(kubeConfig, 'GET', `${crdPath}/${name}`);
      if (
        (body as CrdStatus).status?.conditions?.some(
          (condition) => condition.type === 'Established' && condition.status === 'True',
        )
      )
        break;
      if (attempt > 100) throw new Error(`${name} never became Established`);
      await sleep(100);
    }
  }
}
