import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ManualClock,
  createLogger,
  ed25519PrivateKey,
  generateEd25519KeyPair,
  leaseTrustStore,
  signLease,
  writeStoredLease,
} from '@gw/platform';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import type { EntitlementLeasePayload } from '@gw/contracts';
import { migrateGateway } from '../compose.js';
import { EntitlementGate } from './entitlement-gate.js';

const billingKey = generateEd25519KeyPair();
const strangerKey = generateEd25519KeyPair();
const trust = leaseTrustStore({ billing: billingKey.publicKey });
const logger = createLogger({ name: 'gate-test', level: 'silent' });

function lease(overrides: Partial<EntitlementLeasePayload> = {}, key = billingKey, keyId = 'billing') {
  const payload: EntitlementLeasePayload = {
    v: 1,
    deploymentId: 'dep_1',
    status: 'active',
    optimizerEnabled: true,
    issuedAt: '2026-11-26T12:00:00.000Z',
    expiresAt: '2026-11-27T12:00:00.000Z',
    ...overrides,
  };
  return { payload, signed: signLease(payload, ed25519PrivateKey(key.privateKey), keyId) };
}

describe('EntitlementGate', () => {
  let store: TestDb;
  let clock: ManualClock;
  let gate: EntitlementGate;
  const stored = async (value: ReturnType<typeof lease>) =>
    writeStoredLease(store.db, 'dep_1', value.signed, value.payload.issuedAt, new Date(clock.now()));

  beforeEach(async () => {
    store = await createMemoryPgliteDb();
    await migrateGateway(store.db);
    clock = new ManualClock(Date.parse('2026-11-26T13:00:00Z'));
    gate = new EntitlementGate({ db: store.db, deploymentId: 'dep_1', trust, clock, logger });
  });
  afterEach(async () => {
    gate.stop();
    await store.dispose();
  });

  it('lets everything through while no lease was ever stored', async () => {
    await gate.start();
    expect(gate.verdict().state).toBe('none');
    expect(gate.denial()).toBeNull();
  });

  it('serves an active lease and a paused optimizer alike', async () => {
    await stored(lease({ optimizerEnabled: false }));
    await gate.start();
    expect(gate.verdict().state).toBe('paused');
    expect(gate.leaseSource).toBe('store');
    expect(gate.denial()).toBeNull();
  });

  it('refuses a suspended deployment with 403 and an expired lease with 402', async () => {
    await stored(lease({ status: 'suspended' }));
    await gate.start();
    expect(gate.denial()).toMatchObject({ status: 403, code: 'subscription_suspended' });

    await stored(lease({ issuedAt: '2026-11-26T12:30:00.000Z', expiresAt: '2026-11-26T14:00:00.000Z' }));
    await gate.refresh();
    expect(gate.denial()).toBeNull();
    // The lease runs out between refreshes: refused at once, no store read needed.
    clock.advance(60 * 60_000);
    expect(gate.verdict().state).toBe('expired');
    expect(gate.denial()).toMatchObject({ status: 402, code: 'entitlement_expired' });
  });

  it('treats a lease signed by an untrusted key, or issued to another deployment, as unverifiable', async () => {
    await stored(lease({}, strangerKey, 'billing'));
    await gate.start();
    expect(gate.verdict().state).toBe('unverifiable');
    expect(gate.denial()).toMatchObject({ status: 402, code: 'entitlement_expired' });

    await writeStoredLease(
      store.db,
      'dep_1',
      lease({ deploymentId: 'dep_2', issuedAt: '2026-11-26T12:10:00.000Z' }).signed,
      '2026-11-26T12:10:00.000Z',
      new Date(),
    );
    await gate.refresh();
    expect(gate.verdict().state).toBe('unverifiable');
  });

  it('warns once about a stored lease that does not verify, not on every refresh, and again after it recovered', async () => {
    const lines: string[] = [];
    const recording = createLogger({
      name: 'gate-test',
      level: 'warn',
      destination: new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    });
    const watched = new EntitlementGate({ db: store.db, deploymentId: 'dep_1', trust, clock, logger: recording });
    await stored(lease({}, strangerKey, 'billing'));
    for (let refresh = 0; refresh < 4; refresh += 1) await watched.refresh();
    expect(lines.filter((line) => line.includes('does not verify'))).toHaveLength(1);
    await stored(lease({ issuedAt: '2026-11-26T12:05:00.000Z' }));
    await watched.refresh();
    await stored(lease({ issuedAt: '2026-11-26T12:10:00.000Z' }, strangerKey, 'billing'));
    await watched.refresh();
    await watched.refresh();
    expect(lines.filter((line) => line.includes('does not verify'))).toHaveLength(2);
  });

  it('keeps a good lease when a forged one replaces it in the store', async () => {
    await stored(lease());
    await gate.start();
    await writeStoredLease(
      store.db,
      'dep_1',
      lease({ issuedAt: '2026-11-26T12:20:00.000Z', status: 'suspended' }, strangerKey, 'billing').signed,
      '2026-11-26T12:20:00.000Z',
      new Date(),
    );
    await gate.refresh();
    expect(gate.verdict().state).toBe('active');
  });

  it('never goes back to an older lease than the one it holds', async () => {
    const newer = lease({ issuedAt: '2026-11-26T12:40:00.000Z', status: 'suspended' });
    await gate.start();
    gate.accept({ ok: true, payload: newer.payload });
    expect(gate.leaseSource).toBe('billing');
    gate.accept({ ok: true, payload: lease().payload });
    expect(gate.verdict().state).toBe('suspended');
  });

  it('keeps the held lease through a store outage', async () => {
    await stored(lease());
    await gate.start();
    await store.db.query('DROP TABLE gw_entitlement_lease');
    await gate.refresh();
    expect(gate.verdict().state).toBe('active');
  });
});
