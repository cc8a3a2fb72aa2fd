import type { RawData, WebSocket } from 'ws';
import type { Usage } from '../../providers/translate/usage.js';
import { observeProviderFrame } from './realtime-events.js';

/** Close codes a realtime client sees from the gateway (RFC 6455 §7.4.1), each with a reason naming the cause. */
export const realtimeCloseCodes = {
  /** The provider's socket failed. */
  upstreamFailed: 1011,
  /** A cap or budget was crossed by a response: the session ends after the responses in flight. */
  policy: 1008,
  /** The gateway is shutting down: reconnect, and the new session reaches a replica that is not. */
  goingAway: 1001,
  /** Nothing moved either way for the idle timeout. */
  idle: 1000,
} as const;

export interface RealtimeSessionHooks {
  idleTimeoutMs: number;
  now(): number;
  /** A response finished: record it; a denial means the caller is now over a cap or budget. */
  onResponseDone(usage: Usage | undefined, startedAt: number): Promise<{ code: string; message: string } | null>;
  /** The session ended with a response still in flight: it has no usage, but it still gets its row. */
  onResponseCut(startedAt: number, cause: CutCause): void;
  onEnd(): void;
}

/** Who ended a session under a response in flight: the client, the gateway (drain deadline, idle) or the provider. */
export type CutCause = 'client_closed' | 'gateway_draining' | 'upstream_failed';

// Frames queue on a slow side up to this much before the other side is paused: relayed as they come, never collected.
const highWaterBytes = 1024 * 1024;

/**
 * One realtime session: client and provider sockets relayed frame by frame both ways. The provider's response events
 * are followed for metering (one spend row per `response.done`); a session ends early on a crossed cap, the idle
 * timeout or a drain, each with a close frame, and never in the middle of a response unless the drain deadline says so.
 */
export class RealtimeSession {
  private readonly started = new Map<string, number>();
  private closing: { code: number; reason: string } | null = null;
  private readonly idleTimer: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly client: WebSocket,
    private readonly upstream: WebSocket,
    private readonly hooks: RealtimeSessionHooks,
  ) {
    this.idleTimer = setTimeout(
      () => this.closeNow(realtimeCloseCodes.idle, `idle_timeout: no message either way for ${hooks.idleTimeoutMs} ms`),
      hooks.idleTimeoutMs,
    );
    this.idleTimer.unref();
    client.on('message', (data, isBinary) => {
      this.idleTimer.refresh();
      // Once the session is closing, no new work reaches the provider: the responses in flight finish, nothing starts.
      if (!this.closing) relay(data, isBinary, client, upstream);
    });
    upstream.on('message', (data, isBinary) => {
      this.idleTimer.refresh();
      relay(data, isBinary, upstream, client);
      if (!isBinary && Buffer.isBuffer(data)) this.observe(data);
    });
    client.on('close', () => this.end('client_closed', () => closeSocket(upstream, 1000, 'client closed')));
    upstream.on('close', (code, reason) =>
      this.end('upstream_failed', () => closeSocket(client, sendable(code), reason.toString())),
    );
    upstream.on('error', () =>
      this.end('upstream_failed', () =>
        closeSocket(client, realtimeCloseCodes.upstreamFailed, 'upstream_failed: the provider connection failed'),
      ),
    );
    upstream.resume();
  }

  /** End the session once no response is in flight (now, when none is). */
  closeAfterResponses(code: number, reason: string): void {
    this.closing ??= { code, reason };
    if (this.started.size === 0) this.closeNow(this.closing.code, this.closing.reason);
  }

  closeNow(code: number, reason: string): void {
    this.end('gateway_draining', () => {
      closeSocket(this.client, code, reason);
      closeSocket(this.upstream, 1000, 'session ended by the gateway');
    });
  }

  private observe(frame: Buffer): void {
    const event = observeProviderFrame(frame);
    if (!event) return;
    if (event.kind === 'response.created') {
      this.started.set(event.responseId, this.hooks.now());
      return;
    }
    const startedAt = this.started.get(event.responseId) ?? this.hooks.now();
    this.started.delete(event.responseId);
    void this.hooks.onResponseDone(event.usage, startedAt).then((denial) => {
      if (denial) this.closeAfterResponses(realtimeCloseCodes.policy, `${denial.code}: ${denial.message}`);
      else if (this.closing && this.started.size === 0) this.closeNow(this.closing.code, this.closing.reason);
    });
  }

  private end(cause: CutCause, close: () => void): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    close();
    for (const startedAt of this.started.values()) this.hooks.onResponseCut(startedAt, cause);
    this.started.clear();
    this.hooks.onEnd();
  }
}

function relay(data: RawData, isBinary: boolean, from: WebSocket, to: WebSocket): void {
  if (to.readyState !== to.OPEN) return;
  to.send(data, { binary: isBinary }, () => {
    if (from.isPaused && to.bufferedAmount < highWaterBytes / 2) from.resume();
  });
  if (to.bufferedAmount > highWaterBytes) from.pause();
}

/** A close reason is at most 123 bytes on the wire; longer ones are cut at a character boundary. */
function closeSocket(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === socket.CLOSED || socket.readyState === socket.CLOSING) return;
  let cut = reason;
  while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
  if (socket.readyState === socket.CONNECTING) socket.terminate();
  else socket.close(code, cut);
}

/** Codes that only describe a close (1005 none given, 1006 abnormal) cannot be sent: the client sees them as 1011. */
function sendable(code: number): number {
  if (code === 1005) return 1000;
  if (code === 1006 || code === 1015 || code < 1000 || code >= 5000) return realtimeCloseCodes.upstreamFailed;
  return code;
}
