import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { deploymentIdSetting, env, leaseVerifyKeySetting, loadConfig } from '@gw/platform';
import { parseVerifyKey } from './signing/verify-signature.js';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const tenantTokens = optionalText.transform((value, context) => {
  const entries: Array<{ tenant: string; token: string }> = [];
  for (const pair of value ? value.split(',') : []) {
    const match = /^\s*([A-Za-z0-9._-]{1,128})=(\S{16,})\s*$/.exec(pair);
    if (!match) {
      context.addIssue({
        code: 'custom',
        message: 'must be comma-separated tenant=token pairs, tokens at least 16 characters',
      });
      return z.NEVER;
    }
    entries.push({ tenant: match[1], token: match[2] });
  }
  return entries;
});

const verifyKey = optionalText.transform((value, context): KeyObject | undefined => {
  if (value === undefined) return undefined;
  try {
    return parseVerifyKey(value);
  } catch {
    context.addIssue({
      code: 'custom',
      message: 'must be a base64url raw 32-byte Ed25519 public key or a PEM public key',
    });
    return z.NEVER;
  }
});

const leaseVerifyKey = optionalText.pipe(leaseVerifyKeySetting.optional());

const postgresUrl = optionalText.pipe(env.url(['postgres', 'postgresql']).optional());

const schema = z.object({
  GW_OPTIMIZER_PORT: env.port(8088),
  GW_OPTIMIZER_HOST: z.string().default('127.0.0.1'),
  GW_OPTIMIZER_TOKEN: optionalText.pipe(env.secret(16).optional()),
  GW_OPTIMIZER_TENANT_TOKENS: tenantTokens,
  GW_ADMIN_TOKEN: optionalText.pipe(env.secret(16).optional()),
  GW_CONTENT_KEY: optionalText.pipe(env.hexKey(32).optional()),
  GW_SPEND_DB_URL: postgresUrl,
  GW_OBSERVABILITY_DB_URL: postgresUrl,
  GW_REDIS_URL: optionalText.pipe(env.url(['redis', 'rediss']).optional()),
  GW_DATA_DIR: z.string().min(1).default('./.gw-data'),
  GW_OPTIMIZER_MAX_BODY_BYTES: env.positiveInt(32 * 1024 * 1024).pipe(z.number().min(1024, 'must be at least 1024')),
  GW_OPTIMIZER_VERIFY_KEY: verifyKey,
  // The gateway's rule for the same variable: one value must be valid in both services.
  GW_DEPLOYMENT_ID: optionalText.pipe(deploymentIdSetting.optional()),
  GW_LEASE_VERIFY_KEY: leaseVerifyKey,
  GW_OPTIMIZER_STASH_WRITE_TIMEOUT_MS: env.positiveInt(250).pipe(z.number().min(1, 'must be at least 1')),
  GW_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type OptimizerServiceConfig = Readonly<z.infer<typeof schema>>;

/** The only place the optimizer reads the environment; a bad value throws ConfigError naming the variable. */
export function loadOptimizerConfig(
  environment: Record<string, string | undefined> = process.env,
): OptimizerServiceConfig {
  return loadConfig(schema, environment);
}

export const optimizerHelp = `gw optimizer — Optimizer Protocol v1 service (spec 001)

Usage: node optimizer/dist/main.js [--help]

Environment:
  GW_OPTIMIZER_PORT                 listen port (default 8088; 0 picks a free port)
  GW_OPTIMIZER_HOST                 listen address (default 127.0.0.1; containers set 0.0.0.0)
  GW_OPTIMIZER_TOKEN                shared bearer on the hook routes (/v1/*); unset leaves them open (development only)
  GW_OPTIMIZER_TENANT_TOKENS        per-tenant bearers: tenant=token,tenant2=token2 (tenant is then authoritative)
  GW_ADMIN_TOKEN                    bearer for /admin/optimizer/*; unset disables the admin routes
  GW_CONTENT_KEY                    64 hex characters: AES-256-GCM key of durable stash rows and recorded content;
                                    unset means no durable content, so no retrieval handles (content_disabled)
  GW_SPEND_DB_URL                   Postgres URL of the durable stash and shared settings; unset uses the embedded
                                    store under GW_DATA_DIR; also enables /v1/record when GW_OBSERVABILITY_DB_URL is unset
  GW_OBSERVABILITY_DB_URL           Postgres URL of the trace store; enables POST /v1/record
  GW_DATA_DIR                       embedded store folder (default ./.gw-data)
  GW_REDIS_URL                      Redis shared by replicas for the signature replay window; unset keeps it in process
                                    (one replica)
  GW_OPTIMIZER_MAX_BODY_BYTES       request body limit, 413 above it (default 33554432 = 32 MiB)
  GW_OPTIMIZER_VERIFY_KEY           Ed25519 public key (base64url raw or PEM); when set, /v1/optimize,
                                    /v1/optimize-response, /v1/cache and /v1/recall require x-gw-signature
  GW_DEPLOYMENT_ID                  this deployment's id, as the gateway's (1 to 128 letters, digits, ., _, -); with
                                    GW_SPEND_DB_URL, the optimizer reads the entitlement lease the gateway stores there
                                    and refuses /v1/optimize, /v1/optimize-response, /v1/cache and /v1/recall while it
                                    is paused, expired or does not verify (402) or suspended (403); either unset: no
                                    lease check
  GW_LEASE_VERIFY_KEY               <keyId>:<raw Ed25519 public key, 43 base64url characters>: a lease-signing key
                                    trusted in addition to the billing keys pinned in the image
  GW_OPTIMIZER_STASH_WRITE_TIMEOUT_MS  bound of a durable stash write before the 5-minute cooldown (default 250)
  GW_LOG_LEVEL                      fatal|error|warn|info|debug|trace|silent (default info)
`;
