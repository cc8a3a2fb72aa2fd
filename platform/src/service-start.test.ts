import { describe, expect, it } from 'vitest';
import { loadWhileStoreOpens } from './service-start.js';

describe('loadWhileStoreOpens', () => {
  it('answers the opened store and the loaded modules', async () => {
    const store = { kind: 'store' };
    expect(await loadWhileStoreOpens(import.meta.url, Promise.resolve(store), Promise.resolve(['modules']))).toEqual([
      store,
      ['modules'],
    ]);
  });

  it('surfaces a store that failed while the modules loaded, after them, as no unhandled rejection', async () => {
    let loaded!: (modules: string) => void;
    const loading = new Promise<string>((resolve) => (loaded = resolve));
    const opening = Promise.reject(new Error('the store did not open'));
    const started = loadWhileStoreOpens(import.meta.url, opening, loading);
    // A turn of the event loop while the modules are still loading: an unhandled rejection would be reported now, and
    // Vitest fails the run on one.
    await new Promise((resolve) => setImmediate(resolve));
    loaded('modules');
    await expect(started).rejects.toThrow('the store did not open');
  });
});
