import type { z } from 'zod';
import type {
  AdminKeyCreateBody,
  CapPatch,
  CapView,
  DesktopPolicyView,
  KeyRecord,
  keyPatchBody,
  ModelAliases,
  ModelTable,
  ProviderKeyBody,
  ProviderSummary,
  ProviderType,
  RoutingDocument as RoutingBody,
  serviceKeyCreateBody,
} from '@gw/contracts/management';

/**
 * What the operator needs from a gateway's Management API v1, as a typed interface over the bodies the gateway
 * declares (`@gw/contracts/management`, the same zod schemas its admin operations validate with). The HTTP
 * implementation speaks the `/admin/v1/*` paths, parses answers with those schemas and keeps only the fields named
 * here; reconciler tests use the in-memory fake, and one conformance suite (operator/test/management-conformance.test.ts)
 * holds both to the real gateway's behaviour. Money crosses this boundary as numbers; the CRDs hold decimal strings.
 */

export type { CapReset, ModelAliases, ModelPricing, ModelTable, ProviderType } from '@gw/contracts/management';

/** `PUT /admin/v1/providers/{slug}/key`, in the spelling the operator writes (type and key always named). */
export type ProviderKeyWrite = Pick<ProviderKeyBody, 'baseUrl' | 'apiVersion'> & { type: ProviderType; apiKey: string };

/** One entry of `GET /admin/v1/providers`, a credential-grade read (scope providers:write) with the key in full. */
export type ProviderKeyState = Pick<ProviderSummary, 'slug' | 'type' | 'baseUrl' | 'apiVersion'> & {
  apiKey: string | null;
};

type RoutingFields = Pick<RoutingBody, 'defaultProvider' | 'defaultModel' | 'config'>;

/** `/admin/v1/routing` as the operator applies it (the response cache is not a RoutingConfig field): null when unset. */
export type RoutingDocument = { [Field in keyof RoutingFields]-?: Exclude<RoutingFields[Field], undefined> };

/** A per-user cap entry as `GET /admin/v1/users/{user}/limits` shows it: the webhook URL is write-only. */
export type UserLimitsView = Pick<CapView, 'monthlyTokens' | 'maxUsd' | 'softUsd' | 'reset' | 'alerts'>;

/** `PATCH /admin/v1/users/{user}/limits`: omitted kept, null clears, a value replaces; an omitted webhookUrl is kept. */
export type UserLimitsPatch = Pick<CapPatch, 'monthlyTokens' | 'maxUsd' | 'softUsd' | 'reset' | 'alerts'>;

export type ServiceKeyCreate = z.input<typeof serviceKeyCreateBody>;

export type KeyState = Pick<KeyRecord, 'id' | 'name' | 'team' | 'monthlyBudgetUsd' | 'status'>;

/** `PATCH /admin/v1/keys/{id}`: omitted kept, null clears. */
export type KeyPatch = Pick<z.input<typeof keyPatchBody>, 'name' | 'team' | 'monthlyBudgetUsd'>;

/** `/admin/v1/policies/claude-desktop`. */
export type DesktopPolicyDocument = Pick<DesktopPolicyView, 'enabled' | 'settings'>;

/** `POST /admin/v1/admin-keys` as the operator mints its own key: scopes, never capabilities. */
export type AdminKeyCreate = Required<Pick<AdminKeyCreateBody, 'label' | 'scopes' | 'neverExpires'>>;

export interface ManagementClient {
  /** `GET /admin/v1/me`: the caller's scopes; proves a stored operator key still works. */
  me(): Promise<{ scopes: string[] }>;
  /** `POST /admin/v1/admin-keys` (with the admin token): the operator's own scoped `aak_` key. */
  createAdminKey(body: AdminKeyCreate): Promise<{ key: string; id: string }>;

  listProviderKeys(): Promise<ProviderKeyState[]>;
  putProviderKey(slug: string, body: ProviderKeyWrite): Promise<void>;
  /** Resolves when the provider is absent already. */
  deleteProviderKey(slug: string): Promise<void>;

  getRouting(): Promise<RoutingDocument>;
  putRouting(document: RoutingDocument): Promise<void>;
  getAliases(): Promise<ModelAliases>;
  putAliases(aliases: ModelAliases): Promise<void>;
  getModels(): Promise<ModelTable>;
  putModels(models: ModelTable): Promise<void>;

  /** null when the user has no cap entry. */
  getUserLimits(user: string): Promise<UserLimitsView | null>;
  patchUserLimits(user: string, patch: UserLimitsPatch): Promise<void>;
  /** Clears every limit and the alerts, which removes the entry. */
  clearUserLimits(user: string): Promise<void>;

  createServiceKey(body: ServiceKeyCreate): Promise<{ key: string; id: string }>;
  /** null when the key does not exist. */
  getKey(id: string): Promise<KeyState | null>;
  patchKey(id: string, body: KeyPatch): Promise<void>;
  /** Resolves when the key is absent already. */
  revokeKey(id: string): Promise<void>;

  /** Disabled and empty until first written. */
  getDesktopPolicy(): Promise<DesktopPolicyDocument>;
  putDesktopPolicy(document: DesktopPolicyDocument): Promise<void>;
}

/** An answer from the admin API that is not success; `retryable` decides between backoff and a Stalled condition. */
export class ManagementError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ManagementError';
  }

  /** 429, 5xx and network failures are worth retrying; 4xx means the resource must change. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** Scopes the operator's own key is minted with: exactly the resources it applies. */
export const operatorScopes = [
  'providers:read',
  'providers:write',
  'routing:read',
  'routing:write',
  'users:read',
  'users:write',
  'keys:read',
  'keys:write',
  'policies:read',
  'policies:write',
] as const;
