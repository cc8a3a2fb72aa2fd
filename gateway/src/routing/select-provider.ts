import { AppError } from '@gw/platform';
import type { ProviderInstance } from '../providers/provider-types.js';
import type { ProviderStore } from '../providers/provider.store.js';
import type { RoutingStore } from './routing.store.js';

export interface Selection {
  provider: ProviderInstance;
  /** The model id sent upstream (a `<slug>/` prefix or an alias resolved). */
  model: string;
  /** How the provider was chosen, for the spend record and debugging. */
  via: 'header' | 'config' | 'model-prefix' | 'default';
}

const unknownProvider = (slug: string) => new AppError({ status: 400, code: 'unknown_provider', message: `Unknown provider "${slug}". Configure it with PUT /admin/v1/providers/${slug}/key or name a configured provider.` });

// Routing configs never carry secrets (spec 000 §1.7): any of these keys at any depth rejects the config.
const credentialKeys = /^(api[_-]?key|apikey|authorization|token|secret|password|bearer|x-api-key|access[_-]?token|client[_-]?secret)$/i;

function carriesCredential(value: unknown, depth = 0): boolean {
  if (depth > 8 || typeof value !== 'object' || value === null) return false;
  for (const [key, entry] of Object.entries(value)) {
    if (credentialKeys.test(key)) return true;
    if (carriesCredential(entry, depth + 1)) return true;
  }
  return false;
}

/** A single-target reading of `x-gw-config` (modes and retries come with the routing engine). */
export function parseConfigHeader(raw: string | undefined): { provider?: string; model?: string } | null {
  if (raw === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AppError({ status: 400, code: 'invalid_config', message: 'x-gw-config must be a JSON object.' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppError({ status: 400, code: 'invalid_config', message: 'x-gw-config must be a JSON object.' });
  if (carriesCredential(parsed)) throw new AppError({ status: 400, code: 'config_carries_credential', message: 'x-gw-config must not carry credentials; provider keys are held by the gateway.' });
  const config = parsed as { provider?: unknown; model?: unknown; targets?: unknown; override_params?: { model?: unknown } };
  const first = Array.isArray(config.targets) ? (config.targets[0] as typeof config | undefined) : config;
  if (!first || typeof first !== 'object') throw new AppError({ status: 400, code: 'invalid_config', message: 'x-gw-config names no target.' });
  const provider = typeof first.provider === 'string' ? first.provider : undefined;
  const model = typeof first.model === 'string' ? first.model : typeof first.override_params?.model === 'string' ? first.override_params.model : undefined;
  return { ...(provider ? { provider } : {}), ...(model ? { model } : {}) };
}

/**
 * spec 000 §1.2: provider selection order is `x-gw-provider`, then `x-gw-config`, then the configured default.
 * A model written `<slug>/<model>` names its provider when no header chose one.
 */
export function selectProvider(input: { headerProvider?: string | undefined; configHeader?: string | undefined; model: string }, providers: ProviderStore, routing: RoutingStore): Selection {
  const config = parseConfigHeader(input.configHeader);
  let model = config?.model ?? input.model;
  const resolve = (slug: string) => providers.get(slug) ?? (() => { throw unknownProvider(slug); })();

  if (input.headerProvider) return { provider: resolve(input.headerProvider), model: stripPrefix(model, input.headerProvider), via: 'header' };
  if (config?.provider) return { provider: resolve(config.provider), model: stripPrefix(model, config.provider), via: 'config' };
  const slash = model.indexOf('/');
  if (slash > 0) {
    const prefixed = providers.get(model.slice(0, slash));
    if (prefixed) return { provider: prefixed, model: model.slice(slash + 1), via: 'model-prefix' };
  }
  const fallback = routing.documents.default.defaultProvider;
  if (!fallback) {
    throw new AppError({ status: 400, code: 'no_provider', message: 'No provider selected: send x-gw-provider, an x-gw-config target, or configure a default provider (PUT /admin/v1/routing).' });
  }
  model = stripPrefix(model, fallback);
  return { provider: resolve(fallback), model, via: 'default' };
}

function stripPrefix(model: string, slug: string): string {
  return model.startsWith(`${slug}/`) ? model.slice(slug.length + 1) : model;
}
