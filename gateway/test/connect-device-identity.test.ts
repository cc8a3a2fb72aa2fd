import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@gw/platform';
import { SimulatedDevice, startBillingSimulator, type DeviceKeyAlgorithm } from '@gw/testkit';
import { startBilledGateway, type BilledGateway } from './billing-fixture.js';
import { adminHeaders, mintClientKey, startTestGateway } from './helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Enrolled {
  billed: BilledGateway;
  device: SimulatedDevice;
  key: string;
  keyId: string;
  expiresAt: string;
}

/** A developer with a 30-day key on a billed gateway, and a device whose certificate billing issued and renewed once. */
async function enroll(
  algorithm: DeviceKeyAlgorithm = 'Ed25519',
  options: Parameters<typeof startBilledGateway>[0] = {},
): Promise<Enrolled> {
  const billed = await startBilledGateway(options);
  const { key, record } = await mintClientKey(billed.gateway.app, {
    user: 'Ada@Example.com',
    team: 'platform',
    expiresInDays: 30,
  });
  const device = SimulatedDevice.create({ algorithm, now: () => billed.clock.now() });
  device.adoptCertificate(billed.billing.issueDeviceCertificate('ada@example.com', device.publicJwk));
  const issued = device.certificate;
  const renewed = await device.renewCertificate(billed.billing.url);
  expect(renewed.status).toBe(200);
  expect(device.certificate).not.toEqual(issued);
  return { billed, device, key, keyId: record.id, expiresAt: record.expiresAt as string };
}

function post(
  enrolled: Enrolled,
  url: string,
  payload: unknown,
  headers: Record<string, string> = { 'x-gw-api-key': enrolled.key },
) {
  return enrolled.billed.gateway.app.inject({
    method: 'POST',
    url,
    headers,
    payload: payload as Record<string, unknown>,
  });
}

async function keyExpiry(enrolled: Enrolled): Promise<string | null> {
  const response = await enrolled.billed.gateway.app.inject({
    method: 'GET',
    url: `/admin/v1/keys/${enrolled.keyId}`,
    headers: adminHeaders,
  });
  return response.json<{ expiresAt: string | null }>().expiresAt;
}

async function machineRows(enrolled: Enrolled) {
  const { rows } = await enrolled.billed.gateway.deps.db.query<Record<string, unknown>>(
    'SELECT * FROM gw_device_machines',
  );
  return rows;
}

/** Re-encode a certificate's payload with one field changed, keeping billing's signature: a forgery. */
function forged(certificate: Enrolled['device']['certificate'], change: Record<string, unknown>) {
  const payload = JSON.parse(Buffer.from(certificate.payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { ...certificate, payload: Buffer.from(JSON.stringify({ ...payload, ...change })).toString('base64url') };
}

describe.each(['Ed25519', 'P-256'] as const)(
  'device identity for the connect CLI with a %s device key',
  (algorithm) => {
    it('heartbeats with fresh proofs to extend the key, reports the machine as hashes only, and refuses a replay', async () => {
      const enrolled = await enroll(algorithm);
      const { billed, device, key } = enrolled;
      try {
        billed.clock.advance(DAY_MS);
        const heartbeat = await post(enrolled, '/connect/key/heartbeat', device.heartbeatBody(key));
        expect(heartbeat.statusCode).toBe(200);
        const extendedTo = new Date(billed.clock.now() + 30 * DAY_MS).toISOString();
        expect(heartbeat.json()).toEqual({ status: 'ok', extended: true, expiresAt: extendedTo });
        expect(heartbeat.body).not.toContain('ark_');
        expect(await keyExpiry(enrolled)).toBe(extendedTo);

        const report = device.machineBody(key);
        const machine = await post(enrolled, '/connect/machine', report);
        expect(machine.statusCode).toBe(200);
        expect(machine.json()).toEqual({ status: 'ok', recorded: true });
        const rows = await machineRows(enrolled);
        expect(rows).toEqual([
          expect.objectContaining({
            tenant: '',
            seat: 'ada@example.com',
            machine_sha256: sha256Hex(device.machineUuid),
            certificate_sha256: sha256Hex(`${device.certificate.payload}.${device.certificate.signature}`),
            key_id: enrolled.keyId,
          }),
        ]);
        expect(JSON.stringify(rows)).not.toContain(device.machineUuid);
        expect(JSON.stringify(rows)).not.toContain(device.certificate.signature);

        // The same proof twice at once: the replay store lets exactly one through.
        const racing = device.heartbeatBody(key);
        const raced = await Promise.all([
          post(enrolled, '/connect/key/heartbeat', racing),
          post(enrolled, '/connect/key/heartbeat', racing),
        ]);
        expect(raced.map((response) => response.statusCode).sort()).toEqual([200, 401]);

        const replayed = await post(enrolled, '/connect/machine', report);
        expect(replayed.statusCode).toBe(401);
        expect(replayed.json()).toMatchObject({ status: 'failure', code: 'proof_replayed' });

        const exported = await billed.gateway.app.inject({
          method: 'GET',
          url: '/admin/v1/users/ada@example.com/export',
          headers: adminHeaders,
        });
        expect(exported.json().seats.machines).toEqual([
          expect.objectContaining({ machine_sha256: sha256Hex(device.machineUuid) }),
        ]);
        const erased = await billed.gateway.app.inject({
          method: 'DELETE',
          url: '/admin/v1/users/ada@example.com/data',
          headers: adminHeaders,
        });
        expect(erased.statusCode).toBe(200);
        expect(await machineRows(enrolled)).toEqual([]);
      } finally {
        await billed.close();
      }
    });
  },
);

describe('device identity refusals', () => {
  it('refuses forged and truncated certificates and proofs, another purpose, key or developer, and stale proofs, changing nothing', async () => {
    const enrolled = await enroll();
    const { billed, device, key } = enrolled;
    try {
      const other = await mintClientKey(billed.gateway.app, {
        user: 'ada@example.com',
        team: 'platform',
        expiresInDays: 30,
      });
      const stranger = SimulatedDevice.create({ now: () => billed.clock.now() });
      stranger.adoptCertificate(billed.billing.issueDeviceCertificate('bob@example.com', stranger.publicJwk));
      const outsider = await startBillingSimulator({
        deploymentId: billed.billing.deploymentId,
        now: () => billed.clock.now(),
      });
      const foreign = SimulatedDevice.create({ now: () => billed.clock.now() });
      foreign.adoptCertificate(outsider.issueDeviceCertificate('ada@example.com', foreign.publicJwk));
      await outsider.close();
      const { certificate } = device;
      const now = billed.clock.now();
      const cases: Array<[string, unknown, number, string, RegExp]> = [
        [
          'a truncated certificate payload',
          {
            certificate: { ...certificate, payload: certificate.payload.slice(0, -10) },
            proof: device.proof('key-heartbeat', { apiKey: key }),
          },
          401,
          'invalid_device_certificate',
          /signature does not verify/,
        ],
        [
          'a truncated certificate signature',
          {
            certificate: { ...certificate, signature: certificate.signature.slice(0, 40) },
            proof: device.proof('key-heartbeat', { apiKey: key }),
          },
          400,
          'invalid_request',
          /certificate\.signature/,
        ],
        [
          'a certificate with a swapped key',
          {
            certificate: forged(certificate, { deviceKey: stranger.publicJwk }),
            proof: stranger.proof('key-heartbeat', { apiKey: key, certificate }),
          },
          401,
          'invalid_device_certificate',
          /signature does not verify/,
        ],
        [
          'a certificate from another CA',
          foreign.heartbeatBody(key),
          401,
          'invalid_device_certificate',
          /signature does not verify/,
        ],
        [
          'another developer’s certificate',
          stranger.heartbeatBody(key),
          403,
          'device_certificate_mismatch',
          /another developer/,
        ],
        [
          'a proof signed by another device key',
          { certificate, proof: stranger.proof('key-heartbeat', { apiKey: key, certificate }) },
          401,
          'invalid_proof',
          /not signed by the certificate/,
        ],
        [
          'a truncated proof',
          { certificate, proof: { ...device.proof('key-heartbeat', { apiKey: key }), signature: 'A'.repeat(86) } },
          401,
          'invalid_proof',
          /not signed by the certificate/,
        ],
        [
          'a proof for another purpose',
          { certificate, proof: device.proof('machine-report', { apiKey: key }) },
          401,
          'invalid_proof',
          /another purpose/,
        ],
        [
          'a proof for another key',
          { certificate, proof: device.proof('key-heartbeat', { apiKey: other.key }) },
          401,
          'invalid_proof',
          /another client key/,
        ],
        [
          'a proof for another certificate',
          { certificate, proof: device.proof('key-heartbeat', { apiKey: key, certificate: stranger.certificate }) },
          401,
          'invalid_proof',
          /another certificate/,
        ],
        ['a stale proof', device.heartbeatBody(key, { issuedAt: now - 6 * 60_000 }), 401, 'stale_proof', /too old/],
        [
          'a proof from the future',
          device.heartbeatBody(key, { issuedAt: now + 2 * 60_000 }),
          401,
          'stale_proof',
          /future/,
        ],
        [
          'no certificate',
          { proof: device.proof('key-heartbeat', { apiKey: key }) },
          400,
          'invalid_request',
          /certificate/,
        ],
      ];
      for (const [name, body, status, code, message] of cases) {
        const response = await post(enrolled, '/connect/key/heartbeat', body);
        expect({ name, status: response.statusCode, code: response.json<{ code: string }>().code }).toEqual({
          name,
          status,
          code,
        });
        expect(response.json<{ message: string }>().message).toMatch(message);
      }
      const bearerOnly = await post(enrolled, '/connect/machine', device.machineBody(key), {
        authorization: `Bearer ${key}`,
      });
      expect(bearerOnly.statusCode).toBe(400);
      expect(bearerOnly.json()).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/x-gw-api-key/),
      });
      const badUuid = await post(enrolled, '/connect/machine', {
        ...device.machineBody(key),
        machineUuid: 'not-a-uuid',
      });
      expect(badUuid.statusCode).toBe(400);
      expect(badUuid.json()).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/machineUuid/) });

      expect(await keyExpiry(enrolled)).toBe(enrolled.expiresAt);
      expect(await machineRows(enrolled)).toEqual([]);
      // The refusals spent nothing: a fresh, correct proof still goes through.
      expect((await post(enrolled, '/connect/key/heartbeat', device.heartbeatBody(key))).statusCode).toBe(200);
    } finally {
      await billed.close();
    }
  });

  it('refuses an expired certificate, and billing refuses to renew a replayed proof or a revoked developer', async () => {
    const enrolled = await enroll('P-256', { billing: { deviceCertificateTtlMs: 60 * 60_000 } });
    const { billed, device, key } = enrolled;
    try {
      billed.clock.advance(2 * 60 * 60_000);
      const expired = await post(enrolled, '/connect/key/heartbeat', device.heartbeatBody(key));
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toMatchObject({
        code: 'invalid_device_certificate',
        message: expect.stringMatching(/expired/),
      });
      expect((await device.renewCertificate(billed.billing.url)).body).toMatchObject({
        error: { code: 'invalid_device_certificate' },
      });

      const live = await enroll('Ed25519');
      try {
        const renewal = { certificate: live.device.certificate, proof: live.device.proof('cert-renew') };
        const renew = (body: unknown) =>
          fetch(new URL('/v1/cert/renew', live.billed.billing.url), { method: 'POST', body: JSON.stringify(body) });
        expect((await renew(renewal)).status).toBe(200);
        const replayed = await renew(renewal);
        expect(replayed.status).toBe(401);
        expect(await replayed.json()).toMatchObject({ error: { code: 'proof_replayed' } });
        const wrongPurpose = await renew({
          certificate: live.device.certificate,
          proof: live.device.proof('key-heartbeat'),
        });
        expect(await wrongPurpose.json()).toMatchObject({ error: { code: 'invalid_proof' } });
        live.billed.billing.revokeDeveloper('ADA@example.com');
        const revoked = await live.device.renewCertificate(live.billed.billing.url);
        expect(revoked).toMatchObject({ status: 403, body: { error: { code: 'developer_revoked' } } });
      } finally {
        await live.billed.close();
      }
    } finally {
      await billed.close();
    }
  });

  it('answers 503 when the gateway trusts no device CA, and recorded:false when the store cannot take the report', async () => {
    const unmetered = await startTestGateway();
    const billing = await startBillingSimulator();
    try {
      const { key } = await mintClientKey(unmetered.app, { user: 'ada@example.com', team: 'platform' });
      const device = SimulatedDevice.create();
      device.adoptCertificate(billing.issueDeviceCertificate('ada@example.com', device.publicJwk));
      const response = await unmetered.app.inject({
        method: 'POST',
        url: '/connect/key/heartbeat',
        headers: { 'x-gw-api-key': key },
        payload: device.heartbeatBody(key),
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'failure', code: 'device_identity_unavailable' });
    } finally {
      await billing.close();
      await unmetered.close();
    }
    const enrolled = await enroll();
    const { billed, device, key } = enrolled;
    try {
      await billed.gateway.deps.db.query('DROP TABLE gw_device_machines');
      const machine = await post(enrolled, '/connect/machine', device.machineBody(key));
      expect(machine.statusCode).toBe(200);
      expect(machine.json()).toEqual({ status: 'ok', recorded: false });
    } finally {
      await billed.close();
    }
  });
});
