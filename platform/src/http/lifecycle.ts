import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';

/**
 * Readiness vs liveness: `/` turns 503 while draining so load balancers stop sending, `/livez` stays 200 while the
 * process can serve. SIGTERM drains: stop accepting, let in-flight requests finish, run cleanups, exit.
 */
export class Lifecycle {
  private drainingFlag = false;
  private readonly cleanups: Array<() => Promise<void>> = [];

  get draining(): boolean {
    return this.drainingFlag;
  }

  /** Register work to run after the server stopped (close pools, flush buffers); runs in reverse order. */
  onShutdown(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  beginDrain(): void {
    this.drainingFlag = true;
  }

  async shutdown(app: FastifyInstance, logger: Logger, drainDelayMs = 0, drainTimeoutMs = 30_000): Promise<void> {
    this.beginDrain();
    logger.info({ drainDelayMs }, 'draining: readiness now 503');
    // Give load balancers a moment to observe readiness before the listener closes.
    if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
    // In-flight requests get a bounded time to finish; a stream that never ends must not keep the process alive.
    const deadline = setTimeout(() => {
      logger.warn({ drainTimeoutMs }, 'drain deadline reached: closing remaining connections');
      app.server.closeAllConnections();
    }, drainTimeoutMs);
    deadline.unref();
    await app.close();
    clearTimeout(deadline);
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
  installSignalHandlers(app: FastifyInstance, logger: Logger, drainDelayMs = 0): void {
    let stopping = false;
    const handle = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, 'signal received');
      this.shutdown(app, logger, drainDelayMs).then(
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
