import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';

const idleSweepMs = 100;
const silentGraceMs = 1_000;

/** How a shutdown drains. */
export interface DrainOptions {
  /** Pause between readiness turning 503 and closing the listener, so load balancers stop sending first. */
  delayMs?: number;
  /** How long in-flight requests get to finish on their own. */
  timeoutMs?: number;
  /**
   * After the deadline: how long work that watches `drainDeadline` gets to end itself cleanly (a stream writes its
   * error event) before the remaining connections are closed.
   */
  settleMs?: number;
}

/**
 * Readiness vs liveness: `/` turns 503 while draining so load balancers stop sending, `/livez` stays 200 while the
 * process can serve. SIGTERM drains: stop accepting, let in-flight requests finish, run cleanups, exit. Requests
 * still running at the drain deadline are told through `drainDeadline` and get `settleMs` to end themselves; only
 * then are the remaining connections closed.
 */
export class Lifecycle {
  private drainingFlag = false;
  private readonly cleanups: Array<() => Promise<void>> = [];
  private readonly deadline = new AbortController();
  /** Connections not yet known to have sent a byte, with when they opened (see `watchConnections`). */
  private readonly silent = new Map<Socket, number>();

  get draining(): boolean {
    return this.drainingFlag;
  }

  /** Aborted when a shutdown's drain deadline passes. */
  get drainDeadline(): AbortSignal {
    return this.deadline.signal;
  }

  /** Register work to run after the server stopped (close pools, flush buffers); runs in reverse order. */
  onShutdown(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /**
   * Follows the server's connections so a drain can close those that opened and never sent a request (a TCP health
   * probe, a client's pre-opened connection): `closeIdleConnections` leaves them to the headers timeout, which would
   * hold every shutdown to its deadline. Costs one listener per connection, none per request.
   */
  watchConnections(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.silent.set(socket, Date.now());
      const forget = () => this.silent.delete(socket);
      socket.once('data', forget);
      socket.once('close', forget);
    });
  }

  beginDrain(): void {
    this.drainingFlag = true;
  }

  async shutdown(app: FastifyInstance, logger: Logger, options: DrainOptions = {}): Promise<void> {
    const { delayMs = 0, timeoutMs = 30_000, settleMs = 2_000 } = options;
    this.beginDrain();
    logger.info({ drainDelayMs: delayMs }, 'draining: readiness now 503');
    // Give load balancers a moment to observe readiness before the listener closes.
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // In-flight requests get a bounded time to finish; a stream that never ends must not keep the process alive.
    let forceClose: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => {
      logger.warn({ drainTimeoutMs: timeoutMs }, 'drain deadline reached: ending the requests still running');
      this.deadline.abort();
      forceClose = setTimeout(() => app.server.closeAllConnections(), settleMs);
      forceClose.unref();
    }, timeoutMs);
    deadline.unref();
    // A keep-alive connection whose response ends after the listener closed would otherwise stay open until the
    // client's idle timeout and hold the shutdown to the deadline: close connections as soon as they are idle.
    const sweep = setInterval(() => {
      app.server.closeIdleConnections();
      // One opened this instant may be about to send; one silent for a second is not a request in flight.
      for (const [socket, openedAt] of this.silent) if (Date.now() - openedAt >= silentGraceMs) socket.destroy();
    }, idleSweepMs);
    sweep.unref();
    await app.close();
    clearInterval(sweep);
    clearTimeout(deadline);
    clearTimeout(forceClose);
    for (const cleanup of [...this.cleanups].reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logger.error({ err: error }, 'shutdown cleanup failed');
      }
    }
    logger.info('stopped');
  }

  /** Wire SIGTERM and SIGINT to a graceful shutdown; a second signal exits at once. */
  installSignalHandlers(app: FastifyInstance, logger: Logger, drain: DrainOptions = {}): void {
    this.watchConnections(app.server);
    let stopping = false;
    const handle = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, 'signal received');
      this.shutdown(app, logger, drain).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', handle);
    process.on('SIGINT', handle);
  }
}
