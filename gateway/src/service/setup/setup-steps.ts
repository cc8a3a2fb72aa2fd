import { isoTimestamp } from '@gw/platform';
import type { Clock, Db } from '@gw/platform';
import type { ProviderStore } from '../../providers/provider.store.js';
import type { RoutingStore } from '../../routing/routing.store.js';
import type { IdpConfigStore } from '../../identity/sso/idp-config.store.js';
import type { SetupState, SetupStepId } from './setup.schema.js';

export interface SetupDeps {
  db: Db;
  clock: Clock;
  providers: ProviderStore;
  routing: RoutingStore;
  idpConfigs: IdpConfigStore;
}

interface Finding {
  done: boolean;
  detail: string;
}

interface StepDefinition {
  id: SetupStepId;
  title: string;
  action: { method: string; path: string };
  find(deps: SetupDeps): Promise<Finding>;
}

const exists = async (deps: SetupDeps, sql: string) => (await deps.db.query(sql)).rows.length > 0;

// Each step reads the store that holds what it sets up, so a change made anywhere (the operator, the CLI, a
// Management API call) shows here without setup keeping a flag of its own.
const steps: readonly StepDefinition[] = [
  {
    id: 'admin-sign-in',
    title: 'An administrator signs in to the console with the identity provider',
    action: { method: 'GET', path: '/admin/sso/start' },
    find: async (deps) => {
      const done = await exists(
        deps,
        "SELECT 1 FROM gw_audit_events WHERE category = 'auth' AND action = 'console_sign_in' AND outcome = 'success' LIMIT 1",
      );
      return { done, detail: done ? 'an administrator has signed in' : 'nobody has signed in to the console yet' };
    },
  },
  {
    id: 'provider-key',
    title: 'Store the first provider key',
    action: { method: 'PUT', path: '/admin/v1/providers/{slug}/key' },
    find: async (deps) => {
      const count = deps.providers.all().length;
      return { done: count > 0, detail: `${count} provider${count === 1 ? '' : 's'} configured` };
    },
  },
  {
    id: 'routing-default',
    title: 'Choose the default provider requests are routed to',
    action: { method: 'PUT', path: '/admin/v1/routing' },
    find: async (deps) => {
      const provider = deps.routing.documents.default.defaultProvider;
      return { done: provider !== null, detail: provider ? `default provider ${provider}` : 'no default provider' };
    },
  },
  {
    id: 'identity-provider',
    title: 'Connect the organisation’s identity provider',
    action: { method: 'PUT', path: '/admin/v1/sso' },
    find: async (deps) => {
      const config = await deps.idpConfigs.read();
      return { done: config !== null, detail: config ? `issuer ${config.issuer}` : 'no identity provider' };
    },
  },
  {
    id: 'enrollment-link',
    title: 'Mint the first enrollment link for developers',
    action: { method: 'POST', path: '/admin/v1/enrollment/links' },
    find: async (deps) => {
      const done = await exists(deps, 'SELECT 1 FROM gw_enrollment_links LIMIT 1');
      return { done, detail: done ? 'an enrollment link exists' : 'no enrollment link yet' };
    },
  },
];

interface SkipRow {
  step: string;
  skipped: boolean;
  updated_by: string;
  updated_at: Date | string;
}

/** The first-run steps with their state derived from the real stores, and the skips administrators chose. */
export async function readSetup(deps: SetupDeps): Promise<SetupState> {
  const { rows } = await deps.db.query<SkipRow>('SELECT step, skipped, updated_by, updated_at FROM gw_setup_steps');
  const skips = new Map(rows.filter((row) => row.skipped).map((row) => [row.step, row]));
  const states = await Promise.all(
    steps.map(async (step) => {
      const finding = await step.find(deps);
      const skip = skips.get(step.id);
      return {
        id: step.id,
        title: step.title,
        state: finding.done ? ('done' as const) : skip ? ('skipped' as const) : ('pending' as const),
        detail: finding.detail,
        action: step.action,
        skippedBy: skip?.updated_by ?? null,
        skippedAt: skip ? isoTimestamp(skip.updated_at) : null,
      };
    }),
  );
  const next = states.find((step) => step.state === 'pending')?.id ?? null;
  return { complete: next === null, next, steps: states };
}

/** Skip a step or take the skip back; setting what is already set changes nothing. */
export async function setSkipped(deps: SetupDeps, step: SetupStepId, skipped: boolean, actor: string): Promise<void> {
  await deps.db.query(
    `INSERT INTO gw_setup_steps (step, skipped, updated_by, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (step) DO UPDATE SET skipped = EXCLUDED.skipped, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at
     WHERE gw_setup_steps.skipped IS DISTINCT FROM EXCLUDED.skipped`,
    [step, skipped, actor, new Date(deps.clock.now())],
  );
}
