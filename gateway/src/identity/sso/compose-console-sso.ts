import type { Clock, Coord, Db, Keyring } from '@gw/platform';
import type { AuditRecorder } from './console-auth-events.js';
import { ConsoleSessionStore } from './console-session.store.js';
import { ConsoleSessions } from './console-sessions.js';
import { IdTokenVerifier } from './id-token-verifier.js';
import { IdpConfigStore } from './idp-config.store.js';
import { DiscoveryCache, discoverProvider } from './oidc-discovery.js';
import { SignInFlow } from './sign-in-flow.js';

/** Console sign-in's parts: the identity-provider configuration, the sign-in flow and the session store. */
export interface ConsoleSso {
  configs: IdpConfigStore;
  store: ConsoleSessionStore;
  sessions: ConsoleSessions;
  flow: SignInFlow;
  discovery: DiscoveryCache;
  discover: (issuer: string) => Promise<unknown>;
  idleMs: number;
  maxAgeMs: number;
  audit: AuditRecorder;
}

export function composeConsoleSso(input: {
  db: Db;
  coord: Coord;
  clock: Clock;
  keyring: Keyring;
  audit: AuditRecorder;
  allowPrivate: boolean;
  publicUrl: string | undefined;
  deploymentId: string | undefined;
  idleMinutes: number;
  maxHours: number;
  fetchImpl?: typeof fetch;
}): ConsoleSso {
  const { db, coord, clock } = input;
  const fetchOptions = { allowPrivate: input.allowPrivate, ...(input.fetchImpl ? { fetchImpl: input.fetchImpl } : {}) };
  const configs = new IdpConfigStore(db, input.keyring, clock);
  const store = new ConsoleSessionStore(db, clock);
  const discovery = new DiscoveryCache(clock, fetchOptions);
  const idleMs = input.idleMinutes * 60_000;
  const sessions = new ConsoleSessions({
    db,
    store,
    deployment: input.deploymentId ?? 'local',
    idleMs,
    publicUrl: input.publicUrl,
    now: () => clock.now(),
    audit: input.audit,
  });
  const flow = new SignInFlow({
    configs,
    discovery,
    verifier: new IdTokenVerifier(clock),
    coord,
    ...(input.fetchImpl ? { fetchImpl: input.fetchImpl } : {}),
  });
  return {
    configs,
    store,
    sessions,
    flow,
    discovery,
    discover: (issuer) => discoverProvider(issuer, fetchOptions),
    idleMs,
    maxAgeMs: input.maxHours * 3_600_000,
    audit: input.audit,
  };
}
