import { capabilities, type Capability } from '@gw/contracts/management';

/**
 * Admin capabilities (the legacy `/admin/*` gates). The names are part of the Management API and declared once in
 * contracts; roles are in `roles.ts`, the translation to v1 scopes in `scopes.ts`.
 */
export { capabilities, type Capability };

const capabilitySet: ReadonlySet<string> = new Set(capabilities);

export function isCapability(value: string): value is Capability {
  return capabilitySet.has(value);
}
