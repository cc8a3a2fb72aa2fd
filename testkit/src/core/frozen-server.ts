import { listen, type ListeningServer } from './http-server.js';
import type { RecordedRequest } from './request-log.js';

export interface FrozenServerHandle extends ListeningServer {
  /** Requests received (and never answered), in arrival order. */
  readonly requests: readonly RecordedRequest[];
}

/**
 * A server that reads every request and never answers it: a hung dependency (an optimizer stuck in a loop, a process
 * stopped with SIGSTOP behind a live socket). Callers see their own timeouts fire; `close()` drops the held sockets.
 */
export async function startFrozenServer(): Promise<FrozenServerHandle> {
  const requests: RecordedRequest[] = [];
  const server = await listen(async (request) => {
    requests.push(request);
  });
  return { ...server, requests };
}
