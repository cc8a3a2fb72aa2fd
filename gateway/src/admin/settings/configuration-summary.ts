import { gatewayConfigVariables, type GatewayConfig } from '../../config.js';

type Shown = 'value' | 'origin' | 'presence' | 'count';

/**
 * How each variable appears in a support bundle: values that are not secrets as they are; URLs as scheme, host and
 * port only (never credentials, paths or database names); secrets as `set` or `unset`; lists as a count. A variable
 * missing here is shown by presence only, so a secret added later never leaks by default.
 */
const shown: Partial<Record<keyof GatewayConfig, Shown>> = {
  GW_PORT: 'value',
  GW_HOST: 'value',
  GW_MULTI_TENANT: 'value',
  GW_ALLOW_PRIVATE_UPSTREAMS: 'value',
  GW_LOG_LEVEL: 'value',
  GW_BODY_LIMIT_BYTES: 'value',
  GW_DRAIN_DELAY_MS: 'value',
  GW_DRAIN_TIMEOUT_MS: 'value',
  GW_OPTIMIZER_TIMEOUT_MS: 'value',
  GW_ANTHROPIC_THROTTLE_WAIT_MS: 'value',
  GW_STRICT_DEFAULT_OUTPUT_TOKENS: 'value',
  GW_SPEND_DB_URL: 'origin',
  GW_REDIS_URL: 'origin',
  GW_OPTIMIZER_URL: 'origin',
  GW_ENDPOINT_CONTROL_URL: 'origin',
  GW_CUSTOM_HOST_ALLOWLIST: 'count',
};

/** Scheme, host and port of a URL: never its credentials, path or query. */
export function originOf(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
  } catch {
    return 'set';
  }
}

function show(how: Shown, value: unknown): unknown {
  if (value === undefined || value === null || value === '') return 'unset';
  switch (how) {
    case 'value':
      return value;
    case 'origin':
      return typeof value === 'string' ? originOf(value) : 'set';
    case 'count':
      return typeof value === 'string' ? value.split(',').filter((entry) => entry.trim() !== '').length : 'set';
    case 'presence':
      return 'set';
  }
}

/** The gateway's configuration as a support bundle shows it (see `shown`). */
export function configurationSummary(config: GatewayConfig): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const name of [...gatewayConfigVariables].sort()) summary[name] = show(shown[name] ?? 'presence', config[name]);
  return summary;
}
