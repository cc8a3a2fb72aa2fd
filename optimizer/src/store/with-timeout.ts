/** A store call missed its bound: the store is treated as unable to answer. */
export class TimeoutError extends Error {
  constructor(milliseconds: number) {
    super(`timed out after ${milliseconds} ms`);
    this.name = 'TimeoutError';
  }
}

/** How long a read on a request path may wait for the durable store before the route answers without it. */
export const storeReadTimeoutMs = 2_000;

/** Race a store call against a deadline; the late call is left to finish on its own (its result is ignored). */
export async function withTimeout<T>(work: Promise<T>, milliseconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(milliseconds)), milliseconds);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
