import { forwardOpaque } from '../relay-opaque.js';
import type { InferenceDeps } from '../inference-deps.js';
import type { LaneReport, LaneScope, Sent } from '../lane-report.js';
import type { Selection } from '../../routing/resolve-route.js';
import { subscriptionCredential, subscriptionUpstreamHeaders } from './subscription-headers.js';
import { seatUpstream } from './seat-upstream.js';
import { gatewayError } from '../../errors.js';

/**
 * `/v1/vendor/:plan/:seat/*`: the seat carrier lane of a coding assistant. The developer's seat token
 * is forwarded so the vendor bills its plan; the gateway key travels in `x-gw-api-key`. Opaque: no schema, metered.
 */
export async function runVendorLane(
  deps: Pick<InferenceDeps, 'clock' | 'customHosts' | 'providers' | 'sleep' | 'throttle' | 'upstream'>,
  scope: LaneScope,
): Promise<LaneReport> {
  const { request, reply, signal } = scope;
  const url = new URL(request.url, 'http://gateway.invalid');
  const rest = url.pathname.split('/').slice(5).join('/');
  const body = (request.body ?? undefined) as Record<string, unknown> | undefined;
  let selection: Selection | null = null;
  let sent: Sent | null = null;
  const report = (end: LaneReport['end']): LaneReport => ({
    call: { endpoint: '/v1/vendor/*', body },
    billingMode: 'passthrough',
    selection,
    sent,
    attempts: 1,
    end,
  });
  reply.header('x-gw-auth-mode', 'passthrough');
  try {
    const credential = subscriptionCredential(request.headers);
    if (!credential || !request.headers['x-gw-api-key']) {
      throw gatewayError('seat_token_required');
    }
    const customHost =
      typeof request.headers['x-gw-custom-host'] === 'string' ? request.headers['x-gw-custom-host'] : undefined;
    const provider = await seatUpstream(deps.providers, customHost, deps.customHosts);
    const chosen = { provider, model: typeof body?.model === 'string' ? body.model : '' };
    selection = chosen;
    const relayed = await forwardOpaque(deps, reply, {
      url: `${provider.baseUrl}/${underBase(provider.baseUrl, rest)}${url.search}`,
      method: request.method,
      headers: subscriptionUpstreamHeaders(request.headers, credential, customHost !== undefined),
      ...(request.rawBody && request.method !== 'GET' ? { body: request.rawBody } : {}),
      provider: { slug: provider.slug, family: 'anthropic' },
      requestBody: body,
      signal,
      onSend: (at) => (sent = { selection: chosen, at }),
    });
    return report({ kind: 'relayed', relayed });
  } catch (thrown) {
    return report({ kind: 'failed', thrown });
  }
}

/**
 * The provider path under a base URL that already names the API version (`…/v1`): an SDK pointed at the lane prefix
 * (`baseURL: …/v1/vendor/<plan>/<seat>`) sends `v1/messages`, a client configured with the versioned prefix sends
 * `messages`; both reach `…/v1/messages`.
 */
function underBase(baseUrl: string, rest: string): string {
  const version = /\/(v\d+)$/.exec(baseUrl)?.[1];
  return version && rest.startsWith(`${version}/`) ? rest.slice(version.length + 1) : rest;
}
