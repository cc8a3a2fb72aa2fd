import { z } from 'zod';
import {
  ageColumn,
  baseStatusShape,
  gatewayColumn,
  gatewayRef,
  immutable,
  objectName,
  readyColumn,
  reasonColumn,
  usdAmount,
  type CrdDefinition,
} from './common.js';

/**
 * ServiceKey: a non-human `ark_svc_` key, minted through `POST /admin/v1/keys`, its raw
 * value written once into the Secret `secretName`, revoked with `DELETE /admin/v1/keys/{id}` when the resource goes.
 */

const keyLabel = z.string().min(1).max(128).regex(/^[^\s].*$/);

export const serviceKeySpec = z
  .object({
    gatewayRef,
    name: immutable(keyLabel, 'name').describe('Key name shown in the gateway.'),
    team: immutable(keyLabel, 'team').describe('Team the key\'s spend is attributed to.'),
    monthlyBudgetUsd: usdAmount
      .optional()
      .describe('Monthly budget per UTC calendar month; absent or "0" means unlimited. Soft, fails open.'),
    secretName: immutable(objectName, 'secretName').describe(
      'Secret (same namespace) that receives the raw key under the key "apiKey"; created by the operator.',
    ),
  })
  .strict();

export const serviceKeyStatus = z
  .object({
    ...baseStatusShape,
    keyId: z.string().max(128).optional().describe('Id of the minted key in the gateway (never the key itself).'),
  })
  .strict();

export type ServiceKeySpec = z.infer<typeof serviceKeySpec>;
export type ServiceKeyStatus = z.infer<typeof serviceKeyStatus>;

export const serviceKeyCrd: CrdDefinition<typeof serviceKeySpec, typeof serviceKeyStatus> = {
  kind: 'ServiceKey',
  plural: 'servicekeys',
  singular: 'servicekey',
  shortNames: ['gwsk'],
  description: 'A service key for a non-human caller, minted once into a Secret and revoked on delete.',
  spec: serviceKeySpec,
  status: serviceKeyStatus,
  printerColumns: [
    gatewayColumn,
    { name: 'Team', type: 'string', jsonPath: '.spec.team' },
    { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' },
    readyColumn,
    reasonColumn,
    ageColumn,
  ],
};
