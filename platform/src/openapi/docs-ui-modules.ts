import { createRequire } from 'node:module';

/**
 * Loads, ahead of time, the modules `@fastify/swagger-ui` requires only once its plugin is registered: `yaml` and
 * `@fastify/static` with their graphs, about 0.3 s of CommonJS loading on a service's start. They are resolved from the
 * plugin's own folder, so its later `require` finds the same files already cached.
 *
 * `service` is the calling module's URL (`import.meta.url`): the plugin is the service's dependency, found from there.
 * A service calls this while it waits for its embedded store, which opens on a thread of its own
 * (docs/adr/0033-embedded-store-worker-thread.md): the service's thread is idle then, and the loading leaves the
 * start's critical path. Best effort: where the plugin resolves them differently, the head start is lost and nothing
 * else changes, so a failure here is ignored.
 */
export function preloadDocsUiModules(service: string | URL): void {
  try {
    const fromPlugin = createRequire(createRequire(service).resolve('@fastify/swagger-ui'));
    fromPlugin('yaml');
    fromPlugin('@fastify/static');
  } catch {
    // The plugin loads them itself when it is registered.
  }
}
