import { isIP } from 'node:net';
import { z } from 'zod';
import { deploymentTokenPrefix } from '@gw/contracts';
import { deploymentIdSetting, deviceCaKeySetting, env, leaseVerifyKeySetting, loadConfig } from '@gw/platform';

// And ARCHITECTURE.md "Configuration": validated once at start, frozen; the only reader of process.env.
/** An address or a CIDR range, IPv4 or IPv6 (what fastify's `trustProxy` takes). */
function isAddressOrRange(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

const trustedProxies = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  )
  .refine(
    (entries) => entries.length > 0 && entries.every(isAddressOrRange),
    'must be a comma list of IP addresses or CIDR ranges',
  );

/** `key=value` pairs separated by commas, values percent-encoded: the OpenTelemetry exporters' headers format. */
const otlpHeaders = z.string().transform((value, context) => {
  const headers: Record<string, string> = {};
  for (const pair of value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')) {
    const at = pair.indexOf('=');
    const name = at > 0 ? pair.slice(0, at).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      context.addIssue({ code: 'custom', message: 'must be a comma list of name=value pairs' });
      return z.NEVER;
    }
    try {
      headers[name.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      context.addIssue({ code: 'custom', message: `the value of ${name} is not valid percent-encoding` });
      return z.NEVER;
    }
  }
  return headers;
});
const otlpProtocol = z
  .enum(['http/protobuf', 'http/json', 'grpc'])
  .refine((protocol) => protocol !== 'grpc', 'grpc is not supported: use http/protobuf or http/json');

const schema = z
  .object({
    GW_PORT: env.port(8787),
    GW_HOST: z.string().default('0.0.0.0'),
    GW_ADMIN_TOKEN: env.secret(16).optional(),
    GW_SPEND_DB_URL: env.url(['postgres', 'postgresql']).optional(),
    GW_DATA_DIR: z.string().min(1).default('./.gw-data'),
    GW_REDIS_URL: env.url(['redis', 'rediss']).optional(),
    GW_KEYSTORE_KEY: env.hexKey(32).optional(),
    GW_OPTIMIZER_URL: env.url(['http', 'https']).optional(),
    GW_OPTIMIZER_TOKEN: env.secret(16).optional(),
    GW_OPTIMIZER_SIGNING_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a raw Ed25519 private key, 43 base64url characters')
      .optional(),
    GW_OPTIMIZER_TIMEOUT_MS: env.positiveInt(500),
    GW_OPTIMIZER_BREAKER_FAILURES: env.positiveInt(3).pipe(z.number().min(1, 'must be at least 1')),
    GW_OPTIMIZER_BREAKER_COOLOFF_MS: env.positiveInt(10_000).pipe(z.number().min(100, 'must be at least 100')),
    GW_OPTIMIZER_ADMIN_TOKEN: env.secret(16).optional(),
    GW_CONTENT_KEY: env.hexKey(32).optional(),
    GW_CUSTOM_HOST_ALLOWLIST: z.string().optional(),
    GW_ANTHROPIC_THROTTLE_WAIT_MS: env.positiveInt(60_000),
    GW_STRICT_DEFAULT_OUTPUT_TOKENS: env.positiveInt(1_024),
    GW_MULTI_TENANT: env.boolean(false),
    GW_ENDPOINT_CONTROL_URL: env.url(['http', 'https']).optional(),
    GW_ENDPOINT_CONTROL_ADMIN_TOKEN: env.secret(16).optional(),
    GW_ENDPOINT_AGENT_URL: env.url(['https', 'http']).optional(),
    GW_FLEET_WEBHOOK_CONFIG: z.string().min(1).optional(),
    GW_FLEET_INSTALLER_MAX_BYTES: env.positiveInt(256 * 1024 * 1024),
    GW_ALLOW_PRIVATE_UPSTREAMS: env.boolean(false),
    GW_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    GW_BODY_LIMIT_BYTES: env.positiveInt(32 * 1024 * 1024),
    GW_REALTIME_MAX_MESSAGE_BYTES: env.positiveInt(16 * 1024 * 1024),
    GW_REALTIME_IDLE_TIMEOUT_MS: env.positiveInt(300_000),
    GW_TRUSTED_PROXIES: trustedProxies.optional(),
    GW_HEADERS_TIMEOUT_MS: env.positiveInt(10_000).pipe(z.number().min(1_000, 'must be at least 1000')),
    GW_REQUEST_TIMEOUT_MS: env.positiveInt(30_000).pipe(z.number().min(1_000, 'must be at least 1000')),
    GW_KEEP_ALIVE_TIMEOUT_MS: env.positiveInt(5_000).pipe(z.number().min(1, 'must be at least 1')),
    GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS: env.positiveInt(256),
    GW_DRAIN_DELAY_MS: env.positiveInt(0),
    GW_DRAIN_TIMEOUT_MS: env.positiveInt(30_000),
    GW_BILLING_URL: env.url(['http', 'https']).optional(),
    GW_DEPLOYMENT_TOKEN: env
      .secret(20)
      .startsWith(deploymentTokenPrefix, `must start with ${deploymentTokenPrefix}`)
      .optional(),
    GW_DEPLOYMENT_ID: deploymentIdSetting.optional(),
    GW_METER_INTERVAL_MS: env.positiveInt(300_000).pipe(z.number().min(10_000, 'must be at least 10000')),
    GW_METER_SETTLE_MS: env.positiveInt(30_000),
    GW_LEASE_VERIFY_KEY: leaseVerifyKeySetting.optional(),
    GW_DEVICE_CA_KEY: deviceCaKeySetting.optional(),
    GW_PUBLIC_URL: env.url(['https', 'http']).optional(),
    GW_CONSOLE_SESSION_IDLE_MINUTES: env.positiveInt(30).pipe(z.number().min(1, 'must be at least 1')),
    GW_CONSOLE_SESSION_MAX_HOURS: env.positiveInt(8).pipe(
      z
        .number()
        .min(1, 'must be at least 1')
        .max(24 * 7),
    ),
    GW_ORG_HUB_ISSUER: env.url(['https', 'http']).optional(),
    GW_ORG_HUB_JWKS_URL: env.url(['https', 'http']).optional(),
    GW_ORG_HUB_ORG_CLAIM: z
      .string()
      .regex(/^[A-Za-z0-9_:./-]{1,128}$/, 'a claim name')
      .default('org_id'),
    OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none']).default('otlp'),
    OTEL_EXPORTER_OTLP_ENDPOINT: env.url(['http', 'https']).optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.url(['http', 'https']).optional(),
    OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
    OTEL_EXPORTER_OTLP_HEADERS: otlpHeaders.optional(),
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: otlpHeaders.optional(),
    OTEL_SERVICE_NAME: z.string().min(1).max(200).default('gw-gateway'),
  })
  .superRefine((config, context) => {
    if (config.GW_HEADERS_TIMEOUT_MS > config.GW_REQUEST_TIMEOUT_MS) {
      context.addIssue({
        code: 'custom',
        path: ['GW_HEADERS_TIMEOUT_MS'],
        message: 'must not exceed GW_REQUEST_TIMEOUT_MS (the whole request, headers included, must arrive within it)',
      });
    }
    // The organization hub's token lane checks tokens minted for this gateway's exact /mcp/org URL, and asks billing who
    // the subject is: it needs both.
    if (config.GW_ORG_HUB_ISSUER) {
      for (const name of ['GW_PUBLIC_URL', 'GW_BILLING_URL'] as const) {
        if (!config[name])
          context.addIssue({ code: 'custom', path: [name], message: 'is required when GW_ORG_HUB_ISSUER is set' });
      }
    }
    // A metered gateway needs all three: where billing is, who it is, and the bearer that proves it.
    if (!config.GW_BILLING_URL) return;
    for (const name of ['GW_DEPLOYMENT_TOKEN', 'GW_DEPLOYMENT_ID'] as const) {
      if (!config[name])
        context.addIssue({ code: 'custom', path: [name], message: 'is required when GW_BILLING_URL is set' });
    }
  });

export type GatewayConfig = Readonly<z.infer<typeof schema>>;

/** Every variable the gateway reads, set or not (the support bundle lists them all). */
export const gatewayConfigVariables = Object.keys(schema.shape) as ReadonlyArray<keyof GatewayConfig>;

/** Whether the process was started with a variable set: a release's preflight names variables this build does not read. */
export function environmentVariableSet(name: string): boolean {
  const value = process.env[name];
  return value !== undefined && value !== '';
}

export function readConfig(environment: Record<string, string | undefined>): GatewayConfig {
  return loadConfig(schema, environment);
}

export const configHelp = `gw gateway — environment variables

  GW_PORT                        listen port (default 8787)
  GW_HOST                        listen address (default 0.0.0.0)
  GW_ADMIN_TOKEN                 break-glass admin bearer; generated into GW_DATA_DIR on first start when unset
  GW_SPEND_DB_URL                postgres:// URL of the durable store; unset = embedded PGlite under GW_DATA_DIR
  GW_DATA_DIR                    data folder for the embedded store and generated secrets (default ./.gw-data)
  GW_REDIS_URL                   redis:// URL shared by replicas; unset = in-process (single replica)
  GW_KEYSTORE_KEY                64 hex chars: AES-256-GCM key for provider keys (required with Postgres)
  GW_OPTIMIZER_URL               optimizer base URL (pre-call hook; fail-open)
  GW_OPTIMIZER_TOKEN             bearer sent to the optimizer
  GW_OPTIMIZER_SIGNING_KEY       raw Ed25519 private key (base64url) to sign optimizer hooks; enable here first
  GW_OPTIMIZER_TIMEOUT_MS        hard timeout of the pre-call hook before failing open (default 500)
  GW_OPTIMIZER_BREAKER_FAILURES  optimizer calls failing in a row (timeouts, unreachable, 5xx, 429, malformed) that
                                 open the circuit: calls then skip the optimizer, unoptimized (default 3)
  GW_OPTIMIZER_BREAKER_COOLOFF_MS  how long an open circuit skips the optimizer before one probe call tries it
                                 again; the probe's success closes it (default 10000, at least 100)
  GW_OPTIMIZER_ADMIN_TOKEN       the optimizer's admin bearer (its GW_ADMIN_TOKEN) for /admin/v1/optimizer and the
                                 durable-config push (default GW_ADMIN_TOKEN)
  GW_CONTENT_KEY                 64 hex chars: key for stored content (traces, stash)
  GW_CUSTOM_HOST_ALLOWLIST       comma list of hosts gw-upstream custom_host may target
  GW_ANTHROPIC_THROTTLE_WAIT_MS  longest provider-429 pause served server-side (default 60000; 0 = never wait)
  GW_STRICT_DEFAULT_OUTPUT_TOKENS  output tokens a strict budget reserves for a request without max_tokens, unless
                                 the model's routing entry sets defaultOutputTokens (default 1024)
  GW_MULTI_TENANT                fleet mode (default false)
  GW_ENDPOINT_CONTROL_URL        endpoint evidence service URL; unset, /admin/endpoint/* answers 404
  GW_ENDPOINT_CONTROL_ADMIN_TOKEN  the evidence service's admin bearer (default GW_ADMIN_TOKEN)
  GW_ENDPOINT_AGENT_URL          public URL agents enroll at (the evidence service's /api/* lane); default the
                                 gateway's own origin, where the edge routes /api/* to the evidence service
  GW_FLEET_WEBHOOK_CONFIG        path of the JSON file configuring POST /connect/fleet-policy-webhook (its secret,
                                 policy-to-check map and per-host cooldown; gateway/src/fleet/README.md); unset or
                                 unreadable, the webhook answers 503
  GW_FLEET_INSTALLER_MAX_BYTES   largest agent installer package PUT /admin/v1/fleet/installers/{os} accepts; a
                                 larger one answers 413 and stores nothing (default 268435456, 256 MiB)
  GW_ALLOW_PRIVATE_UPSTREAMS     allow http and private addresses for provider base URLs (default false)
  GW_LOG_LEVEL                   fatal|error|warn|info|debug|trace|silent (default info)
  GW_BODY_LIMIT_BYTES            largest accepted request body (default 33554432)
  GW_REALTIME_MAX_MESSAGE_BYTES  largest client message on a /v1/realtime session; a larger one closes the session
                                 with 1009 (default 16777216)
  GW_REALTIME_IDLE_TIMEOUT_MS    a /v1/realtime session with no message either way for this long is closed
                                 (default 300000)
  GW_TRUSTED_PROXIES             comma list of addresses or CIDR ranges of the proxies in front (an ingress): their
                                 X-Forwarded-For and -Proto name the client (per-address limits, the auth-failure
                                 guard, advertised URLs); unset, no forwarded header is believed
  GW_HEADERS_TIMEOUT_MS          time a client gets to send a request's headers (default 10000, at least 1000)
  GW_REQUEST_TIMEOUT_MS          time a client gets to send a whole request, headers and body; past it the request
                                 is answered 408 and the connection closed; a streamed response is not bound by it
                                 (default 30000, at least 1000, not less than GW_HEADERS_TIMEOUT_MS)
  GW_KEEP_ALIVE_TIMEOUT_MS       how long an idle keep-alive connection is kept between requests (default 5000;
                                 behind a load balancer, set it above the balancer's own idle timeout)
  GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS  connections one address may hold before a request on them
                                 authenticated; past it a new one is answered 429 and closed (default 256; 0 = no cap;
                                 GW_TRUSTED_PROXIES are exempt)
  GW_DRAIN_DELAY_MS              pause between readiness turning 503 and closing the listener (default 0)
  GW_DRAIN_TIMEOUT_MS            time in-flight requests get to finish on SIGTERM; streams still running then end
                                 with an SSE error event, unanswered calls with a retryable 503 (default 30000)
  GW_BILLING_URL                 billing service URL; set, the gateway is metered: it reports usage every interval
                                 and enforces the signed entitlement lease billing answers with (unset = unmetered)
  GW_DEPLOYMENT_TOKEN            the deployment bearer toward billing (adt_…); required with GW_BILLING_URL
  GW_DEPLOYMENT_ID               this deployment's id at billing; required with GW_BILLING_URL
  GW_METER_INTERVAL_MS           time between usage reports (default 300000, at least 10000)
  GW_METER_SETTLE_MS             spend rows younger than this wait for the next report, so a batch still committing
                                 is never skipped (default 30000)
  GW_LEASE_VERIFY_KEY            <keyId>:<Ed25519 public key> trusted for leases besides the pinned billing keys
                                 (shown as leaseTrust: configured in /admin/health and in every report)
  GW_DEVICE_CA_KEY               <keyId>:<Ed25519 public key> of billing's device-certificate CA, trusted besides the
                                 pinned ones; the connect key heartbeat and machine report verify certificates with it
  GW_PUBLIC_URL                  the gateway's public URL (scheme, host, optional path prefix); the organization
                                 hub's resource is <GW_PUBLIC_URL>/mcp/org, exactly; a hosted tool connector aimed at
                                 <GW_PUBLIC_URL>/mcp counts as retrieval declared by the request
  GW_CONSOLE_SESSION_IDLE_MINUTES  a console sign-in session unused for this long ends (default 30)
  GW_CONSOLE_SESSION_MAX_HOURS   a console sign-in session ends this long after sign-in, used or not (default 8,
                                 at most 168); sign-in is OpenID Connect with the identity provider set at
                                 PUT /admin/v1/sso, its redirect URI <GW_PUBLIC_URL>/admin/sso/callback
  GW_ORG_HUB_ISSUER              the managed authorization issuer whose RS256 access tokens /mcp/org accepts; set, the
                                 organization hub runs (needs GW_PUBLIC_URL and GW_BILLING_URL)
  GW_ORG_HUB_JWKS_URL            the issuer's key set (default: jwks_uri from <issuer>/.well-known/openid-configuration)
  GW_ORG_HUB_ORG_CLAIM           the access-token claim carrying the organization id (default org_id)
  OTEL_EXPORTER_OTLP_ENDPOINT    OpenTelemetry collector base URL; set, one content-free span per call is exported
                                 over OTLP/HTTP to <endpoint>/v1/traces (OpenTelemetry GenAI attribute names)
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT  the full traces URL instead (wins over the base URL)
  OTEL_EXPORTER_OTLP_PROTOCOL    http/protobuf (default) or http/json; _TRACES_PROTOCOL wins; grpc is refused
  OTEL_EXPORTER_OTLP_HEADERS     name=value,… sent with every export (values percent-encoded); _TRACES_HEADERS wins
  OTEL_SERVICE_NAME              the spans' service.name (default gw-gateway)
  OTEL_TRACES_EXPORTER           otlp (default) or none (no export even with an endpoint set)
`;
