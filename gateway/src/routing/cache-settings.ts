import { z } from 'zod';
import { AppError } from '@gw/platform';

/**
 * The response cache's settings, in the spelling Portkey configs use (`cache: {mode, max_age}`) plus the gateway's
 * sharing rule. `mode` opts sampled requests in (deterministic ones are cached without it); `max_age` bounds how long
 * an entry written by the call lives; `share` widens the partition from the caller to its team. The routing README
 * ("Response cache") says how they combine.
 */
export const cacheSettingsSchema = z.strictObject({
  mode: z.enum(['simple', 'semantic', 'off']).optional().describe('`simple` or `semantic`: cache sampled requests too; `off`: never use the cache'),
  max_age: z.number().int().min(1).max(31_536_000).optional().describe('Seconds an entry written by this call may be served'),
  share: z.enum(['user', 'team']).optional().describe('Who shares entries: each user or service key (default), or the whole team; stored routing only'),
});

export type CacheSettings = z.infer<typeof cacheSettingsSchema>;

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
    throw new AppError({ status: 400, code: 'invalid_config', message: `routing config cache${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'is invalid'} (expected {mode: "simple" | "semantic" | "off", max_age: seconds})` });
  }
  return parsed.data;
}
