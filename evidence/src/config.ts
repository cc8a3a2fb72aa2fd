import { z } from 'zod';
import { env, loadConfig } from '@gw/platform';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const schema = z.object({
  GW_EVIDENCE_PORT: env.port(8089),
  GW_EVIDENCE_HOST: z.string().default('127.0.0.1'),
  GW_EVIDENCE_DB_URL: optionalText.pipe(env.url(['postgres', 'postgresql']).optional()),
  GW_SPEND_DB_URL: optionalText.pipe(env.url(['postgres', 'postgresql']).optional()),
  GW_ENDPOINT_CONTROL_ADMIN_TOKEN: optionalText.pipe(env.secret(16).optional()),
  GW_ADMIN_TOKEN: optionalText.pipe(env.secret(16).optional()),
  GW_CONTENT_KEY: optionalText.pipe(env.hexKey(32).optional()),
  GW_CONTENT_MODE: z.enum(['off', 'full']).default('full'),
  GW_DATA_DIR: z.string().min(1).default('./.gw-data'),
  GW_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EvidenceServiceConfig = Readonly<z.infer<typeof schema>>;

/** The only place the evidence service reads the environment; a bad value throws ConfigError naming the variable. */
export function loadEvidenceConfig(
  environment: Record<string, string | undefined> = process.env,
): EvidenceServiceConfig {
  return loadConfig(schema, environment);
}

/** The service's store: its own URL, else the deployment's shared Postgres, else (undefined) the embedded store. */
export function databaseUrlOf(
  config: Pick<EvidenceServiceConfig, 'GW_EVIDENCE_DB_URL' | 'GW_SPEND_DB_URL'>,
): string | undefined {
  return config.GW_EVIDENCE_DB_URL ?? config.GW_SPEND_DB_URL;
}

/** The admin plane's bearer is `GW_ENDPOINT_CONTROL_ADMIN_TOKEN`, falling back to `GW_ADMIN_TOKEN`. */
export function adminTokenOf(
  config: Pick<EvidenceServiceConfig, 'GW_ENDPOINT_CONTROL_ADMIN_TOKEN' | 'GW_ADMIN_TOKEN'>,
): string | undefined {
  return config.GW_ENDPOINT_CONTROL_ADMIN_TOKEN ?? config.GW_ADMIN_TOKEN;
}

export const evidenceHelp = `gw evidence — endpoint evidence service

Usage: node evidence/dist/main.js [--help]

Environment:
  GW_EVIDENCE_PORT                  listen port (default 8089; 0 picks a free port)
  GW_EVIDENCE_HOST                  listen address (default 127.0.0.1; containers set 0.0.0.0)
  GW_EVIDENCE_DB_URL                Postgres URL of the service's own store (its tables are ev_*)
  GW_SPEND_DB_URL                   used when GW_EVIDENCE_DB_URL is unset (the deployment's shared Postgres); with
                                    neither, the embedded store under GW_DATA_DIR
  GW_ENDPOINT_CONTROL_ADMIN_TOKEN   bearer of the admin plane (/admin/*); falls back to GW_ADMIN_TOKEN; with neither
                                    the admin plane answers 404. Where the whole service origin is published, set a
                                    distinct high-entropy value: it is the only control on the admin plane
  GW_ADMIN_TOKEN                    the gateway's admin bearer, used when GW_ENDPOINT_CONTROL_ADMIN_TOKEN is unset
  GW_CONTENT_KEY                    64 hex chars: turns remediation-output retention on (8 KiB, AES-256-GCM, readable
                                    30 days); without it script output is discarded unread
  GW_CONTENT_MODE                   off|full (default full); off disables remediation-output retention outright
  GW_DATA_DIR                       embedded store folder (default ./.gw-data)
  GW_LOG_LEVEL                      fatal|error|warn|info|debug|trace|silent (default info)
`;
