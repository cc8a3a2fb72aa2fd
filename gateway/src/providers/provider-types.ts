import { providerTypes, type ProviderType } from '@gw/contracts/management';

// A provider instance's `type` values are part of the Management API, declared once in contracts.
export { providerTypes, type ProviderType };

/** The wire family a provider speaks: same family passes through, crossing families translates. */
export type ProviderFamily = 'openai' | 'anthropic';

export const familyOf: Readonly<Record<ProviderType, ProviderFamily>> = {
  openai: 'openai',
  'azure-openai': 'openai',
  anthropic: 'anthropic',
  'openai-compatible': 'openai',
  'gw-upstream': 'openai',
};

export function isProviderType(value: string): value is ProviderType {
  return (providerTypes as readonly string[]).includes(value);
}

/** A configured provider with its decrypted credential; lives only in memory. */
export interface ProviderInstance {
  slug: string;
  type: ProviderType;
  family: ProviderFamily;
  /** Absent for a keyless `gw-upstream`. */
  apiKey: string | null;
  baseUrl: string;
  apiVersion: string | null;
}

/** The upstream call an adapter builds: where to send and which credential headers to inject. */
export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
}

/** Operations the gateway understands by name; anything else is an opaque `/v1/...` path. */
export type UpstreamOperation =
  | { kind: 'chat' }
  | { kind: 'messages' }
  | { kind: 'count_tokens' }
  | { kind: 'completions' }
  | { kind: 'embeddings' }
  | { kind: 'models' }
  | { kind: 'passthrough'; path: string; search: string };
