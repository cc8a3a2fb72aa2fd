import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export interface KubeResponse {
  status: number;
  body: unknown;
  text: string;
}

/**
 * A raw JSON request with the kubeconfig's credentials. The typed client re-serialises bodies through its model
 * classes and drops keys it does not model (`x-kubernetes-validations` in a CRD), so CRDs and samples go raw.
 */
const requestTimeoutMs = 30_000;

export async function kubeRequest(
  kubeConfig: KubeConfig,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<KubeResponse> {
  const server = new URL(kubeConfig.getCurrentCluster()?.server ?? '');
  const options: RequestOptions = {
    host: server.hostname,
    port: server.port,
    method,
    path,
    headers: { accept: 'application/json' },
  };
  await kubeConfig.applyToHTTPSOptions(options);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  if (payload !== undefined) options.headers = { ...options.headers, 'content-type': contentType };
  return new Promise((resolveResponse, reject) => {
    const outgoing = httpsRequest(options, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // keep the text
        }
        resolveResponse({ status: response.statusCode ?? 0, body: parsed, text });
      });
    });
    // A request the API server accepted but never answers (seen under a fully loaded machine) fails instead of hanging.
    outgoing.setTimeout(requestTimeoutMs, () =>
      outgoing.destroy(new Error(`${method} ${path}: no answer within ${requestTimeoutMs} ms`)),
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
