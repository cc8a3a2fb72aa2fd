export * from './common.js';
export * from './gateway.js';
export * from './provider-key.js';
export * from './routing-config.js';
export * from './user-cap.js';
export * from './service-key.js';
export * from './desktop-policy.js';

import { desktopPolicyCrd } from './desktop-policy.js';
import { gatewayCrd } from './gateway.js';
import { providerKeyCrd } from './provider-key.js';
import { routingConfigCrd } from './routing-config.js';
import { serviceKeyCrd } from './service-key.js';
import { userCapCrd } from './user-cap.js';

/** Every gw.dev kind, in the order the generator writes them. */
export const crdDefinitions = [
  gatewayCrd,
  providerKeyCrd,
  routingConfigCrd,
  userCapCrd,
  serviceKeyCrd,
  desktopPolicyCrd,
] as const;
