import { createServer, type Server } from 'node:http';

/** Sits between Prometheus and a service's `/metrics`, and tells a test when scrapes happen. */
export interface ScrapeRelay {
  /** `host:port` to put in Prometheus's `static_configs`. */
  target: string;
  /**
   * Resolves when the `count`-th scrape has started. Prometheus appends and commits a scrape's samples before its
   * scrape loop starts the next one, so once scrape N+1 has started, scrape N is queryable.
   */
  scrapes(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A relay in front of `upstream` (an origin such as `http://127.0.0.1:8080`): every request is forwarded as is. */
export async function startScrapeRelay(upstream: string): Promise<ScrapeRelay> {
  let started = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((request, response) => {
    started += 1;
    for (const waiter of waiters.filter((candidate) => candidate.count <= started)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    fetch(`${upstream}${request.url ?? '/metrics'}`, { headers: { accept: request.headers.accept ?? '*/*' } })
      .then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        response.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => {
        response.writeHead(502);
        response.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    target: `127.0.0.1:${port}`,
    scrapes: (count) =>
      count <= started ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
