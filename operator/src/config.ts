import { env, loadConfig } from '@gw/platform';
import { z } from 'zod';

/** The operator's environment (the chart sets it; charts/gw-operator/templates/deployment.yaml). */
export const operatorConfigSchema = z.object({
  GW_OPERATOR_WATCH_NAMESPACES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  GW_OPERATOR_LEADER_ELECTION: env.boolean(true),
  GW_OPERATOR_LEASE_NAME: z.string().min(1).default('gw-operator-leader'),
  GW_OPERATOR_LEASE_NAMESPACE: z.string().min(1).default('default'),
  GW_OPERATOR_IDENTITY: z.string().min(1).default(`gw-operator-${process.pid}`),
  GW_OPERATOR_RESYNC_SECONDS: env.positiveInt(300).pipe(z.number().min(30, 'must be at least 30')),
  GW_OPERATOR_METRICS_PORT: env.port(8080),
  GW_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Outside the cluster (a developer's machine, a port-forward, CI) the gateway Services' in-cluster names do not
  // resolve: each pair sends calls meant for one in-cluster URL to another. Unset in a cluster.
  GW_OPERATOR_GATEWAY_URLS: z
    .string()
    .default('')
    .transform((value, context) => {
      const overrides = new Map<string, string>();
      for (const pair of value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '')) {
        const [from, to, ...rest] = pair.split('=');
        if (rest.length > 0 || !isHttpUrl(from) || !isHttpUrl(to)) {
          context.addIssue({
            code: 'custom',
            message: `"${pair}" is not <in-cluster URL>=<URL to use>, both http(s) URLs`,
          });
          return z.NEVER;
        }
        overrides.set(new URL(from).origin, new URL(to).origin);
      }
      return overrides;
    }),
});

function isHttpUrl(value: string | undefined): boolean {
  if (value === undefined || !URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

/** The URL the operator calls for a gateway Service's in-cluster URL: the override's, else the same. */
export function gatewayUrlFor(overrides: ReadonlyMap<string, string>, inClusterUrl: string): string {
  const override = URL.canParse(inClusterUrl) ? overrides.get(new URL(inClusterUrl).origin) : undefined;
  return override === undefined ? inClusterUrl : `${override}${new URL(inClusterUrl).pathname.replace(/^\/$/, '')}`;
}

export type OperatorConfig = z.infer<typeof operatorConfigSchema>;

/** The only place the operator reads process.env. */
export function loadOperatorConfig(
  environment: Record<string, string | undefined> = process.env,
): Readonly<OperatorConfig> {
  return loadConfig(operatorConfigSchema, environment);
}
