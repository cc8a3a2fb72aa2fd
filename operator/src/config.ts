import { env, loadConfig } from '@gw/platform';
import { z } from 'zod';

/** The operator's environment (the chart sets it; charts/gw-operator/templates/deployment.yaml). */
export const operatorConfigSchema = z.object({
  GW_OPERATOR_WATCH_NAMESPACES: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((name) => name.trim()).filter((name) => name !== '')),
  GW_OPERATOR_LEADER_ELECTION: env.boolean(true),
  GW_OPERATOR_LEASE_NAME: z.string().min(1).default('gw-operator-leader'),
  GW_OPERATOR_LEASE_NAMESPACE: z.string().min(1).default('default'),
  GW_OPERATOR_IDENTITY: z.string().min(1).default(`gw-operator-${process.pid}`),
  GW_OPERATOR_RESYNC_SECONDS: env.positiveInt(300).pipe(z.number().min(30, 'must be at least 30')),
  GW_OPERATOR_METRICS_PORT: env.port(8080),
  GW_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type OperatorConfig = z.infer<typeof operatorConfigSchema>;

/** The only place the operator reads process.env. */
export function loadOperatorConfig(environment: Record<string, string | undefined> = process.env): Readonly<OperatorConfig> {
  return loadConfig(operatorConfigSchema, environment);
}
