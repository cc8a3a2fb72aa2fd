import { cacheSettingsSchema, type CacheSettings } from '@gw/contracts/management';
import { gatewayError } from '../errors.js';

// The response cache's settings are part of the routing document, declared once in contracts.
export { cacheSettingsSchema, type CacheSettings };

/** The `cache` block of an `x-gw-config` header, if any; 400 in the config envelope when it is malformed. */
export function cacheSettingsOfConfigHeader(raw: string | undefined): CacheSettings | null {
  if (raw === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null; // the routing stage refuses the header with its own message
  }
  return cacheSettingsOfConfig(value);
}

/**
 * The `cache` block of a routing config (a request's or the stored default), if any; 400 in the config envelope when
 * it is malformed. A config cannot set `share`: who shares entries is the stored routing's `cache.share` alone.
 */
export function cacheSettingsOfConfig(value: unknown): CacheSettings | null {
  if (typeof value !== 'object' || value === null || !('cache' in value)) return null;
  const parsed = cacheSettingsSchema.omit({ share: true }).safeParse(value.cache);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw gatewayError(
      'invalid_config',
      `routing config cache${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'is invalid'} (expected {mode: "simple" | "semantic" | "off", max_age: seconds})`,
    );
  }
  return parsed.data;
}
