import type { Coord, Db, Lifecycle } from '@gw/platform';
import { migrationStatus } from '@gw/platform';
import { z } from 'zod';
import { defineOperation, type AdminOperation } from '../operation.js';

/** Entitlement lease fields; the metering issue supplies real ones, an unmetered gateway has none. */
export interface LeaseFields {
  leaseStatus: string;
  leaseSource: string;
  leaseTrust: string;
  leaseAcquire: string;
}

export const unmeteredLease: LeaseFields = {
  leaseStatus: 'none',
  leaseSource: 'none',
  leaseTrust: 'none',
  leaseAcquire: 'not-metered',
};

export interface HealthOperationDeps {
  db: Db;
  coord: Coord;
  lifecycle: Lifecycle;
  coordinationKind: 'redis' | 'in-process';
  expectedSchemaVersion: number;
  optimizerUrl: string | undefined;
  optimizerToken: string | undefined;
  lease: () => LeaseFields;
  now: () => number;
  /** The pre-call hook's circuit breaker, when an optimizer is configured. */
  optimizerCircuit?: (() => CircuitReport) | undefined;
  /** SCIM reflection to billing's roster, when billing is configured. */
  identityReflection?: (() => Promise<IdentityReflectionReport>) | undefined;
}

const circuitReport = z
  .object({
    state: z
      .enum(['closed', 'open', 'half_open'])
      .describe(
        'closed: calls use the optimizer; open: calls skip it (unoptimized) until the cool-off ends; half_open: one probe call is trying it',
      ),
    consecutiveFailures: z
      .number()
      .int()
      .describe('Optimizer calls failed in a row (timeouts, unreachable, 5xx, 429, malformed answers)'),
    openedAt: z.string().nullable().describe('When the circuit last opened; null while closed'),
    probeAt: z.string().nullable().describe('When an open circuit lets its next probe call through; null unless open'),
    skipped: z
      .number()
      .int()
      .describe('Calls forwarded without asking the optimizer because the circuit was open, since the process started'),
  })
  .describe('The circuit breaker in front of the pre-call hook, on this replica');

/** What the optimizer's circuit breaker reports (its snapshot has this shape). */
export type CircuitReport = z.infer<typeof circuitReport>;

const identityReflectionReport = z
  .union([
    z.object({ configured: z.literal(false) }),
    z.object({
      configured: z.literal(true),
      waiting: z.number().int().describe('Identity changes SCIM made that billing has not taken yet'),
      failing: z.number().int().describe('Of those, the ones held back after billing refused or did not answer'),
      oldestWaitingSince: z.string().nullable().describe('When the oldest waiting change was made; null when none'),
      lastError: z
        .object({ code: z.string(), at: z.string() })
        .nullable()
        .describe("This replica's last failed report to billing; null after a success"),
    }),
  ])
  .describe("SCIM reflection to billing's roster of enrolled identities (hashes only)");

/** What the reflection of enrolled identities to billing reports. */
export type IdentityReflectionReport = z.infer<typeof identityReflectionReport>;

const optimizerTimeoutMs = 1500;

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']).describe('degraded when the store, the schema or coordination is not right'),
  live: z.literal(true),
  draining: z.boolean(),
  store: z.object({ kind: z.enum(['pg', 'pglite']), reachable: z.boolean(), latencyMs: z.number() }),
  schema: z.object({ applied: z.number().nullable(), expected: z.number(), upToDate: z.boolean() }),
  coordination: z.object({ kind: z.enum(['redis', 'in-process']), reachable: z.boolean() }),
  optimizer: z.union([
    z.object({ configured: z.literal(false) }),
    z.object({
      configured: z.literal(true),
      reachable: z.boolean(),
      status: z.number().nullable(),
      latencyMs: z.number(),
      circuit: circuitReport.optional(),
    }),
  ]),
  addressConflicts: z
    .number()
    .int()
    .nullable()
    .describe(
      'Addresses whose caps are stored in more than one spelling, waiting for an administrator to set them once (PATCH /admin/user-caps/<address>); null when unknown',
    ),
  identityReflection: identityReflectionReport,
  leaseStatus: z.string(),
  leaseSource: z.string(),
  leaseTrust: z.string(),
  leaseAcquire: z.string(),
});

const circuitOf = (deps: HealthOperationDeps) => (deps.optimizerCircuit ? { circuit: deps.optimizerCircuit() } : {});

async function probeOptimizer(deps: HealthOperationDeps) {
  if (!deps.optimizerUrl) return { configured: false as const };
  const started = deps.now();
  try {
    const response = await fetch(new URL('/health', deps.optimizerUrl), {
      signal: AbortSignal.timeout(optimizerTimeoutMs),
      headers: deps.optimizerToken ? { authorization: `Bearer ${deps.optimizerToken}` } : {},
    });
    await response.body?.cancel();
    return {
      configured: true as const,
      reachable: response.ok,
      status: response.status,
      latencyMs: deps.now() - started,
      ...circuitOf(deps),
    };
  } catch {
    return {
      configured: true as const,
      reachable: false,
      status: null,
      latencyMs: deps.now() - started,
      ...circuitOf(deps),
    };
  }
}

async function schemaOf(deps: HealthOperationDeps) {
  try {
    const status = await migrationStatus(deps.db, 'gateway', deps.expectedSchemaVersion);
    return { applied: status.applied, expected: status.expected, upToDate: status.upToDate };
  } catch {
    return { applied: null, expected: deps.expectedSchemaVersion, upToDate: false };
  }
}

/** Cap rows of one address in several spellings, left by the address fold for an administrator. */
async function countAddressConflicts(db: Db): Promise<number | null> {
  try {
    const { rows } = await db.query<{ count: string | number }>('SELECT count(*) AS count FROM gw_address_conflicts');
    return Number(rows[0]?.count ?? 0);
  } catch {
    return null;
  }
}

/** The outbox is read only once the schema that holds it is there; a store that fails the read reports none. */
async function reflectionOf(deps: HealthOperationDeps, schemaUpToDate: boolean): Promise<IdentityReflectionReport> {
  if (!deps.identityReflection || !schemaUpToDate) return { configured: false };
  return deps.identityReflection().catch((): IdentityReflectionReport => ({ configured: false }));
}

export type HealthReport = z.infer<typeof healthResponse>;

/** The health report: store ping, schema applied vs expected, coordination, optimizer, lease (also in the support bundle). */
export async function healthReport(deps: HealthOperationDeps): Promise<HealthReport> {
  const started = deps.now();
  const [reachable, coordinationReachable, optimizer] = await Promise.all([
    deps.db.ping(),
    deps.coord.ping().catch(() => false),
    probeOptimizer(deps),
  ]);
  const storeLatency = deps.now() - started;
  const schema = reachable
    ? await schemaOf(deps)
    : { applied: null, expected: deps.expectedSchemaVersion, upToDate: false };
  const healthy = reachable && schema.upToDate && coordinationReachable;
  const addressConflicts = schema.upToDate ? await countAddressConflicts(deps.db) : null;
  const identityReflection = await reflectionOf(deps, schema.upToDate);
  return {
    status: healthy ? 'ok' : 'degraded',
    live: true,
    draining: deps.lifecycle.draining,
    store: { kind: deps.db.kind, reachable, latencyMs: storeLatency },
    schema,
    coordination: { kind: deps.coordinationKind, reachable: coordinationReachable },
    optimizer,
    addressConflicts,
    identityReflection,
    ...deps.lease(),
  };
}

/** `GET /admin/health`: liveness, store ping, schema applied vs expected, optimizer, lease. */
export function healthOperations(deps: HealthOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'settings.health',
      summary:
        'Liveness, store ping, schema version applied vs expected, coordination, optimizer reachability, lease status',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/health' }],
      v1: { path: '/admin/v1/settings/health' },
      xScope: 'tenant',
      response: healthResponse,
      handler: async () => healthReport(deps),
    }),
  ];
}
