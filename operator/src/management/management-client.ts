/**
 * What the operator needs from a gateway's Management API v1 (spec 000 §4.8), as a typed interface. The HTTP
 * implementation speaks the `/admin/v1/*` paths; reconciler tests use the in-memory fake. Bodies follow the
 * gateway's admin operation table (gateway/src/admin); money crosses this boundary as numbers (spec 000 §2), the
 * CRDs hold decimal strings.
 */

export type ProviderType = 'openai' | 'azure-openai' | 'anthropic' | 'gw-upstream' | 'openai-compatible';

export interface ProviderKeyWrite {
  type: ProviderType;
  apiKey: string;
  baseUrl?: string;
  apiVersion?: string;
}

export interface ProviderKeyState {
  slug: string;
  type: ProviderType;
  baseUrl: string | null;
  apiVersion: string | null;
  /** The full key: GET /admin/v1/providers is a credential-grade read (scope providers:write). */
  apiKey: string | null;
}

export interface RoutingTarget {
  provider: string;
  model?: string;
  weight?: number;
  retry?: { attempts: number; onStatusCodes: number[] };
}

/** `/admin/v1/routing`: the default provider plus the fallback / loadbalance config (spec 000 §1.7, §2). */
export interface RoutingDocument {
  defaultProvider: string | null;
  routing?: { mode: 'fallback' | 'loadbalance'; onStatusCodes: number[]; targets: RoutingTarget[] } | null;
}

export interface ModelAlias {
  name: string;
  model: string;
  provider?: string;
}

export interface ModelEntry {
  name: string;
  provider?: string;
  inputUsdPerMillionTokens?: number;
  outputUsdPerMillionTokens?: number;
  cacheReadUsdPerMillionTokens?: number;
  cacheWriteUsdPerMillionTokens?: number;
  maxOutputTokens?: number;
}

/** Per-user cap entry (spec 000 §2); null clears a field. */
export interface UserLimits {
  monthlyTokens: number | null;
  maxUsd: number | null;
  softUsd: number | null;
  reset: 'never' | 'daily' | 'weekly' | 'monthly';
  alerts?: { thresholdsPercent: number[]; webhookUrl: string } | null;
}

export interface ServiceKeyCreate {
  name: string;
  team: string;
  monthlyBudgetUsd?: number;
}

export interface KeyState {
  id: string;
  name: string | null;
  team: string;
  monthlyBudgetUsd: number | null;
  status: 'active' | 'expired' | 'revoked';
}

export interface DesktopPolicyDocument {
  enabled: boolean;
  settings: Record<string, unknown>;
}

export interface AdminKeyCreate {
  label: string;
  scopes: string[];
  neverExpires: boolean;
}

export interface ManagementClient {
  /** `GET /admin/v1/me`: the caller's scopes; proves a stored operator key still works. */
  me(): Promise<{ scopes: string[] }>;
  /** `POST /admin/v1/admin-keys` (with the admin token): the operator's own scoped `aak_` key. */
  createAdminKey(body: AdminKeyCreate): Promise<{ key: string; id: string }>;

  listProviderKeys(): Promise<ProviderKeyState[]>;
  putProviderKey(slug: string, body: ProviderKeyWrite): Promise<void>;
  deleteProviderKey(slug: string): Promise<void>;

  getRouting(): Promise<RoutingDocument>;
  putRouting(document: RoutingDocument): Promise<void>;
  getAliases(): Promise<ModelAlias[]>;
  putAliases(aliases: ModelAlias[]): Promise<void>;
  getModels(): Promise<ModelEntry[]>;
  putModels(models: ModelEntry[]): Promise<void>;

  /** null when the user has no cap entry. */
  getUserLimits(user: string): Promise<UserLimits | null>;
  putUserLimits(user: string, limits: UserLimits): Promise<void>;
  deleteUserLimits(user: string): Promise<void>;

  createServiceKey(body: ServiceKeyCreate): Promise<{ key: string; id: string }>;
  /** null when the key does not exist. */
  getKey(id: string): Promise<KeyState | null>;
  patchKey(id: string, body: { monthlyBudgetUsd: number | null }): Promise<void>;
  revokeKey(id: string): Promise<void>;

  getDesktopPolicy(): Promise<DesktopPolicyDocument | null>;
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

/** Scopes the operator's own key is minted with: exactly the resources it applies (spec 000 §5 "V1 scope rule"). */
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
