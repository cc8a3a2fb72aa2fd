import { z } from 'zod';
import { modelId } from '@gw/contracts/management';
import { gatewayError } from '../errors.js';

/** Status codes worth another try or another target when a config names none. */
export const transientStatusCodes: readonly number[] = [429, 500, 502, 503, 504, 529];

export interface RetryPolicy {
  /** Retries after the first attempt (0 = one attempt). */
  attempts: number;
  onStatusCodes: readonly number[];
  /** Honour the provider's Retry-After (seconds or HTTP date), capped; otherwise jittered exponential backoff. */
  useRetryAfter: boolean;
}

export interface TargetNode {
  kind: 'target';
  provider: string;
  model?: string;
  weight: number;
  retry: RetryPolicy;
}

export interface GroupNode {
  kind: 'group';
  mode: 'fallback' | 'loadbalance';
  onStatusCodes: readonly number[];
  weight: number;
  targets: readonly RoutingNode[];
}

export type RoutingNode = TargetNode | GroupNode;

const statusCodes = z.array(z.number().int().min(100).max(599)).max(32);
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a configured provider slug');

const nativeRetry = z.strictObject({
  attempts: z.number().int().min(0).max(10),
  onStatusCodes: statusCodes.optional(),
  useRetryAfter: z.boolean().optional(),
});
const portkeyRetry = z.looseObject({
  attempts: z.number().int().min(0).max(10),
  on_status_codes: statusCodes.optional(),
  use_retry_after_header: z.boolean().optional(),
});

type RawConfig = {
  mode?: 'fallback' | 'loadbalance' | 'single';
  strategy?: { mode?: 'fallback' | 'loadbalance' | 'single'; on_status_codes?: number[] };
  onStatusCodes?: number[];
  on_status_codes?: number[];
  retry?: {
    attempts: number;
    onStatusCodes?: number[];
    on_status_codes?: number[];
    useRetryAfter?: boolean;
    use_retry_after_header?: boolean;
  };
  targets?: RawConfig[];
  provider?: string;
  virtual_key?: string;
  model?: string;
  override_params?: { model?: string };
  weight?: number;
};

/**
 * The routing config as clients send it (`x-gw-config`) and admins store it: our spelling
 * (`{mode, onStatusCodes, retry, targets: [{provider, model, weight, retry}]}`) and the widely used Portkey spelling
 * (`strategy: {mode, on_status_codes}`, `override_params.model`, `retry.use_retry_after_header`, `virtual_key`),
 * nested to any depth (bounded). Unknown keys are tolerated so configs move over unchanged.
 */
export const routingConfigSchema: z.ZodType<RawConfig> = z.lazy(() =>
  z.looseObject({
    mode: z.enum(['fallback', 'loadbalance', 'single']).optional(),
    strategy: z
      .looseObject({
        mode: z.enum(['fallback', 'loadbalance', 'single']).optional(),
        on_status_codes: statusCodes.optional(),
      })
      .optional(),
    onStatusCodes: statusCodes.optional(),
    on_status_codes: statusCodes.optional(),
    retry: z.union([nativeRetry, portkeyRetry]).optional(),
    targets: z.array(routingConfigSchema).min(1).max(32).optional(),
    provider: slug.optional(),
    virtual_key: slug.optional(),
    model: modelId.optional(),
    override_params: z.looseObject({ model: modelId.optional() }).optional(),
    weight: z.number().min(0).max(1_000_000).optional(),
  }),
);

// Configs never carry secrets: any of these keys at any depth rejects the whole config.
const credentialKey =
  /^(api[_-]?key|apikey|authorization|token|secret|password|bearer|x-api-key|access[_-]?token|client[_-]?secret|aws_secret_access_key|aws_session_token)$/i;

export function carriesCredential(value: unknown, depth = 0): boolean {
  if (depth > 12 || typeof value !== 'object' || value === null) return false;
  for (const [key, entry] of Object.entries(value)) {
    if (credentialKey.test(key) || carriesCredential(entry, depth + 1)) return true;
  }
  return false;
}

const invalidConfig = (message: string) => gatewayError('invalid_config', message);

function retryOf(raw: RawConfig['retry'], inherited: RetryPolicy): RetryPolicy {
  if (!raw) return inherited;
  return {
    attempts: raw.attempts,
    onStatusCodes: raw.onStatusCodes ?? raw.on_status_codes ?? transientStatusCodes,
    useRetryAfter: raw.useRetryAfter ?? raw.use_retry_after_header ?? true,
  };
}

const noRetry: RetryPolicy = { attempts: 0, onStatusCodes: transientStatusCodes, useRetryAfter: true };

function normalise(raw: RawConfig, inheritedRetry: RetryPolicy, depth: number): RoutingNode {
  if (depth > 4) throw invalidConfig('routing config nests targets more than 4 levels deep');
  const retry = retryOf(raw.retry, inheritedRetry);
  const weight = raw.weight ?? 1;
  if (raw.targets) {
    const mode = raw.mode ?? raw.strategy?.mode ?? 'fallback';
    const onStatusCodes =
      raw.onStatusCodes ?? raw.on_status_codes ?? raw.strategy?.on_status_codes ?? transientStatusCodes;
    const targets = raw.targets.map((target) => normalise(target, retry, depth + 1));
    if (mode === 'single') return targets[0];
    if (mode === 'loadbalance' && !targets.some((target) => target.weight > 0))
      throw invalidConfig('a loadbalance config needs at least one target with a positive weight');
    return { kind: 'group', mode, onStatusCodes, weight, targets };
  }
  const provider = raw.provider ?? raw.virtual_key;
  if (!provider) throw invalidConfig('each routing target names a provider');
  const model = raw.override_params?.model ?? raw.model;
  return { kind: 'target', provider, ...(model ? { model } : {}), weight, retry };
}

/** Parse and normalise a config object into a routing tree; 400 on credentials or shape errors. */
export function parseRoutingConfig(value: unknown): RoutingNode {
  if (carriesCredential(value)) throw gatewayError('config_carries_credential');
  const parsed = routingConfigSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidConfig(
      `routing config ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'is invalid'}`,
    );
  }
  return normalise(parsed.data, noRetry, 0);
}

/** `x-gw-config` header: a JSON string holding a routing config. */
export function parseConfigHeader(raw: string): RoutingNode {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidConfig('x-gw-config must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidConfig('x-gw-config must be a JSON object');
  return parseRoutingConfig(value);
}

export function singleTarget(provider: string, model?: string): TargetNode {
  return { kind: 'target', provider, ...(model ? { model } : {}), weight: 1, retry: noRetry };
}

/** Every provider slug a tree names, to validate configs against configured providers. */
export function providersOf(node: RoutingNode): string[] {
  return node.kind === 'target' ? [node.provider] : node.targets.flatMap(providersOf);
}
