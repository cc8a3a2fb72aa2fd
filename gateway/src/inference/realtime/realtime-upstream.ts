import { gatewayError } from '../../errors.js';
import type { FastifyRequest } from 'fastify';
import WebSocket from 'ws';
import type { AppError } from '@gw/platform';
import { adapters } from '../../providers/adapters.js';
import type { ProviderType } from '../../providers/provider-types.js';
import { upstreamSourceHeaders } from '../../providers/upstream/header-policy.js';
import type { Selection } from '../../routing/resolve-route.js';
import { selectSingle } from '../../routing/select-single.js';
import type { InferenceDeps } from '../inference-deps.js';

/** The provider's side of a realtime session: an open socket, paused until the client's side is upgraded. */
export interface RealtimeUpstream {
  socket: WebSocket;
  selection: Selection;
}

// Realtime is the OpenAI family's own protocol, served by OpenAI and its Azure-hosted variant; other providers
// (OpenAI-compatible servers included) do not speak it, so a session routed there is refused before the upgrade.
const servesRealtime: ReadonlySet<ProviderType> = new Set(['openai', 'azure-openai']);
const handshakeTimeoutMs = 10_000;

/**
 * Resolve the provider as any `/v1` call does (`x-gw-provider`, `x-gw-config`, the default; the `model` query names
 * the model) and open its realtime socket with the server-held credential. Only the `openai-beta` header goes along:
 * never the client's key, whether it came as a header or as a subprotocol.
 */
export async function openRealtimeUpstream(
  deps: Pick<InferenceDeps, 'providers' | 'routing'>,
  request: FastifyRequest,
): Promise<RealtimeUpstream> {
  const url = new URL(request.url, 'http://gateway.invalid');
  const selection = selectSingle(request, url.searchParams.get('model') ?? '', deps.providers, deps.routing);
  const { provider } = selection;
  if (!servesRealtime.has(provider.type)) {
    throw gatewayError(
      'unsupported_by_provider',
      `Provider "${provider.slug}" (${provider.type}) does not serve /v1/realtime; realtime sessions need an openai or azure-openai provider.`,
    );
  }
  if (selection.model) url.searchParams.set('model', selection.model);
  // Azure names the deployment: `deployment` on its preview realtime path, `model` on the v1 one; both are sent.
  if (provider.type === 'azure-openai' && selection.model) url.searchParams.set('deployment', selection.model);
  const target = adapters[provider.type].target(
    provider,
    { kind: 'passthrough', path: '/realtime', search: url.search },
    selection.model,
  );
  const beta = request.headers['openai-beta'];
  const headers = { ...target.headers, ...(typeof beta === 'string' ? { 'openai-beta': beta } : {}) };
  const socket = new WebSocket(target.url.replace(/^http/, 'ws'), {
    headers,
    perMessageDeflate: false,
    followRedirects: false,
    handshakeTimeout: handshakeTimeoutMs,
  });
  await opened(socket, provider.slug);
  return { socket, selection };
}

/** Resolves once the provider completed the upgrade (the socket paused); a refusal or failure is a 502 before ours. */
function opened(socket: WebSocket, slug: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: AppError) => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      reject(error);
    };
    socket.once('open', () => {
      // Frames the provider sends before the client's side is upgraded wait in the socket, not in memory of ours.
      socket.pause();
      socket.removeAllListeners();
      resolve();
    });
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      fail(
        gatewayError(
          'upstream_refused',
          `Provider "${slug}" refused the realtime session (HTTP ${status}). This is not a gateway failure.`,
          { headers: upstreamSourceHeaders(slug, status) },
        ),
      );
    });
    socket.once('error', () => {
      fail(
        gatewayError(
          'upstream_unreachable',
          `Provider "${slug}" could not be reached. This is not a gateway failure.`,
          { headers: upstreamSourceHeaders(slug) },
        ),
      );
    });
  });
}
