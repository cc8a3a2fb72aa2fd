import { gatewayError } from '../../errors.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import type { Coord } from '@gw/platform';
import type { Governance } from '../../governance/governance.js';
import { standingDenial } from '../../chain/admission/standing.js';
import { identityOf } from '../../chain/identity/identity-of.js';
import { keySubprotocolPrefix } from '../../identity/keys/extract-key.js';
import type { InferenceDeps } from '../inference-deps.js';
import { openRealtimeUpstream, type RealtimeUpstream } from './realtime-upstream.js';
import { RealtimeSession, realtimeCloseCodes } from './realtime-session.js';
import { realtimeEndpoint, recordRealtimeResponse } from './realtime-spend.js';

export interface RealtimeRouteOptions {
  inference: Pick<InferenceDeps, 'clock' | 'meter' | 'providers' | 'routing' | 'shutdown'>;
  standing: { coord: Coord; governance: Governance };
  /** Largest client message; a larger one closes the session with 1009. */
  maxMessageBytes: number;
  idleTimeoutMs: number;
}

const drainReason = 'gateway_draining: this gateway replica is shutting down; reconnect';

/**
 * `GET /v1/realtime`: the WebSocket upgrade, proxied to the provider's realtime endpoint. Registered inside the chain's
 * scope, so identity, entitlement and admission decide before the upgrade exactly as for a JSON call, and a refusal is
 * the same HTTP status and envelope; the concurrency slot admission took is held until the socket closes.
 */
export async function realtimeRoutes(app: FastifyInstance, options: RealtimeRouteOptions): Promise<void> {
  const { inference } = options;
  const sessions = new Set<RealtimeSession>();
  await app.register(websocket, {
    options: { maxPayload: options.maxMessageBytes, perMessageDeflate: false, handleProtocols: chooseSubprotocol },
    // ws already closed the socket with the right code (1009 for an oversized message); a terminate here would cut
    // that close frame off.
    errorHandler: (error, socket, request) => {
      request.log.debug({ err: error }, 'realtime client socket error');
      if (socket.readyState === socket.OPEN) socket.close(realtimeCloseCodes.upstreamFailed, 'internal_error');
    },
    // Shutting down: each session closes after its responses in flight; the drain deadline closes the rest.
    preClose: (done) => {
      for (const session of sessions) session.closeAfterResponses(realtimeCloseCodes.goingAway, drainReason);
      done();
    },
  });
  // An upgrade refused with an HTTP answer leaves a socket no HTTP parser reads any more: end it after the answer.
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.raw.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket.end();
    done();
  });
  inference.shutdown?.addEventListener('abort', () => {
    for (const session of sessions) session.closeNow(realtimeCloseCodes.goingAway, drainReason);
  });

  const upstreams = new WeakMap<FastifyRequest, RealtimeUpstream & { abandon: () => void }>();
  app.route({
    method: 'GET',
    url: realtimeEndpoint,
    schema: {
      tags: ['inference'],
      summary:
        'Realtime session (WebSocket upgrade), proxied to the OpenAI-family provider; a refusal is answered before the upgrade',
      security: [{ clientKey: [] }],
    },
    // After identity and admission: the provider's socket opens before ours is upgraded, so its refusal is still an HTTP answer.
    preHandler: async (request) => {
      if (!request.ws) return;
      const upstream = await openRealtimeUpstream(inference, request);
      // The client may leave before its side is upgraded; the provider's socket must not outlive it.
      const abandon = () => upstream.socket.terminate();
      request.raw.socket.once('close', abandon);
      upstreams.set(request, { ...upstream, abandon });
    },
    handler: async () => {
      throw gatewayError(
        'upgrade_required',
        `${realtimeEndpoint} is a WebSocket endpoint: connect with an Upgrade: websocket request.`,
      );
    },
    wsHandler: (socket: WebSocket, request) => {
      const upstream = upstreams.get(request);
      upstreams.delete(request);
      if (upstream) request.raw.socket.removeListener('close', upstream.abandon);
      if (!upstream) {
        socket.close(realtimeCloseCodes.upstreamFailed, 'upstream_failed');
        return;
      }
      const identity = identityOf(request);
      const session = new RealtimeSession(socket, upstream.socket, {
        idleTimeoutMs: options.idleTimeoutMs,
        now: () => inference.clock.now(),
        onResponseDone: async (usage, startedAt) => {
          recordRealtimeResponse(inference.meter, request, {
            selection: upstream.selection,
            usage,
            startedAt,
            now: inference.clock.now(),
          });
          // The counters take the row at the end of this turn; the standing is read once they have.
          await options.standing.governance.idle();
          return standingDenial({ ...options.standing, clock: inference.clock }, identity);
        },
        onResponseCut: (startedAt, cause) =>
          recordRealtimeResponse(inference.meter, request, {
            selection: upstream.selection,
            usage: undefined,
            startedAt,
            now: inference.clock.now(),
            cut: cause,
          }),
        onEnd: () => sessions.delete(session),
      });
      sessions.add(session);
    },
  });
}

/**
 * The subprotocol answered on the upgrade: `realtime` when offered, else the first that is not a key. The key
 * subprotocol is never echoed back: it would put the key in a response header.
 */
function chooseSubprotocol(offered: Set<string>): string | false {
  if (offered.has('realtime')) return 'realtime';
  for (const protocol of offered) if (!protocol.startsWith(keySubprotocolPrefix)) return protocol;
  return false;
}
