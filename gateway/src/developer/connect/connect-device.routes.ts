import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { deviceHeartbeatBody, deviceMachineBody } from '@gw/contracts';
import type { Clock, Logger, ZodTypeProvider } from '@gw/platform';
import type { KeyStore } from '../../identity/keys/key.store.js';
import type { KeyRecord } from '../../identity/keys/key.schema.js';
import { identityOf } from '../../chain/identity/identity-of.js';
import type { DeviceMachineStore } from '../seats/device-machine.store.js';
import { seatOf } from '../seats/seat.js';
import { connectErrors } from './connect-errors.js';
import { connectErrorResponse } from './connect.schema.js';
import type { DeviceProofGate } from './device-proof-gate.js';

export interface ConnectDeviceOptions {
  gate: DeviceProofGate;
  keys: KeyStore;
  machines: DeviceMachineStore;
  clock: Clock;
  logger: Logger;
}

const security = [{ clientKey: [] }];
const tags = ['connect'];
const refusals = {
  400: connectErrorResponse,
  401: connectErrorResponse,
  403: connectErrorResponse,
  503: connectErrorResponse,
};
const gated =
  'The bearer alone is not enough: send the current client key in `x-gw-api-key`, the device certificate billing signed, and a fresh proof signed by the certificate’s key for this purpose, this certificate and this client key. ' +
  'Each proof is good once within its window. Refusals: 401 `invalid_device_certificate`, `invalid_proof` (another purpose, certificate or key, or a bad signature), `stale_proof`, `proof_replayed`; 403 `device_certificate_mismatch`; 503 `device_identity_unavailable` when the gateway verifies no certificates.';

const heartbeatResponse = z.object({
  status: z.literal('ok'),
  extended: z.boolean().describe('False when the key has no expiry to extend, or its expiry already lies further out'),
  expiresAt: z
    .string()
    .nullable()
    .describe('The key’s expiry after the heartbeat; the key itself is never in the answer'),
});
const machineResponse = z.object({
  status: z.literal('ok'),
  recorded: z.boolean().describe('False when the relational store could not take the report; the call still succeeds'),
});

/**
 * A key with an expiry is pushed out by its own lifetime from now (a 30-day enrollment key stays a 30-day key while its
 * device keeps heartbeating), never pulled in. A key without an expiry has nothing to extend.
 */
function extendedExpiry(key: KeyRecord, nowMs: number): Date | null {
  if (key.expiresAt === null) return null;
  const current = Date.parse(key.expiresAt);
  const lifetime = current - Date.parse(key.createdAt);
  if (!(lifetime > 0) || nowMs + lifetime <= current) return null;
  return new Date(nowMs + lifetime);
}

/** The connect routes gated by a device certificate and a proof of possession: the key heartbeat and the machine report. */
export async function connectDeviceRoutes(plain: FastifyInstance, options: ConnectDeviceOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { gate, keys, machines, clock, logger } = options;

  app.post(
    '/connect/key/heartbeat',
    {
      schema: {
        tags,
        security,
        summary: 'Extend the enrollment key, proving possession of the device key',
        description: `Never returns a replacement key. ${gated} 503 \`key_store_unavailable\` when the extension could not be written.`,
        body: deviceHeartbeatBody,
        response: { 200: heartbeatResponse, ...refusals },
      },
    },
    async (request) => {
      await gate.admit(request, request.body, 'key-heartbeat');
      const identity = identityOf(request);
      const next = extendedExpiry(identity.key, clock.now());
      if (next === null) return { status: 'ok' as const, extended: false, expiresAt: identity.key.expiresAt };
      let updated;
      try {
        updated = await keys.update(identity.keyId, { expiresAt: next });
      } catch (error) {
        logger.warn({ err: error }, 'key heartbeat not written');
        throw connectErrors.keyHeartbeatUnavailable();
      }
      return {
        status: 'ok' as const,
        extended: updated !== null,
        expiresAt: updated ? updated.expiresAt : identity.key.expiresAt,
      };
    },
  );

  app.post(
    '/connect/machine',
    {
      schema: {
        tags,
        security,
        summary: 'Report the machine joining the caller’s seat',
        description: `\`machineUuid\` travels beside the proof; only SHA-256 hashes of it and of the certificate are stored. Answers \`recorded: false\` when the relational store cannot take the report. ${gated}`,
        body: deviceMachineBody,
        response: { 200: machineResponse, ...refusals },
      },
    },
    async (request) => {
      const admitted = await gate.admit(request, request.body, 'machine-report');
      const identity = identityOf(request);
      try {
        await machines.record(seatOf(identity), request.body.machineUuid, admitted.certificateSha256, identity.keyId);
        return { status: 'ok' as const, recorded: true };
      } catch (error) {
        logger.warn({ err: error }, 'machine report not recorded');
        return { status: 'ok' as const, recorded: false };
      }
    },
  );
}
