import { preloadDocsUiModules } from './openapi/docs-ui-modules.js';

/**
 * A service's start, store first: its store is already opening (the embedded store on a thread of its own,
 * docs/adr/0033-embedded-store-worker-thread.md) while the service's own modules load; once they have, the thread
 * spends what is left of the wait reading the docs page's modules ahead (`preloadDocsUiModules`). Then the store is
 * awaited: its failure surfaces here, after the modules, and is never an unhandled rejection meanwhile.
 *
 * `service` is the calling module's URL (`import.meta.url`).
 */
export async function loadWhileStoreOpens<Store, Modules>(
  service: string | URL,
  opening: Promise<Store>,
  loading: Promise<Modules>,
): Promise<[Store, Modules]> {
  opening.catch(() => undefined);
  const modules = await loading;
  preloadDocsUiModules(service);
  return [await opening, modules];
}
