/**
 * What the operator needs from a gateway's Management API v1 (spec 000 §4.8), as a typed interface whose bodies are
 * the gateway's own (gateway/src/admin/*: the operation files and their zod schemas). The HTTP implementation speaks
 * the `/admin/v1/*` paths and keeps only the fields named here; reconciler tests use the in-memory fake, and one
 * conformance suite (operator/test/management-conformance.test.ts) holds both to the real gateway's behaviour.
 * Money crosses this boundary as numbers (spec 000 §2); the CRDs hold decimal strings.
 */

export type ProviderType = 'openai' | 'azure-openai' | 'anthropic' | 'gw-upstream' | 'openai-compatible';

/** `PUT /admin/v1/providers/{slug}/key`. */
export interface ProviderKeyWrite {
  type: ProviderType;
  apiKey: string;
  baseUrl?: string;
  apiVersion?: string;
}

/** One entry of `GET /admin/v1/providers`, a credential-grade read (scope providers:write) with the key in full. */
export interface ProviderKeyState {
  slug: string;
  type: ProviderType;
  /** Normalised by the gateway: no trailing slash, `/v1` appended for anthropic, the type's default when unset. */
  baseUrl: string;
  apiVersion: string | null;
  apiKey: string | null;
}

/** `/admin/v1/routing`: the default provider, the default model and the default routing config (spec 000 §1.7, §2). */
export interface RoutingDocument {
  defaultProvider: string | null;
  defaultModel: string | null;
  /** The gateway's spelling `{mode, onStatusCodes, targets: [{provider, model?, weight?, retry?}]}`, stored as sent. */
  config: Record<string, unknown> | null;
}

/** `/admin/v1/routing/aliases`: alias → provider and model. */
export type ModelAliases = Record<string, { provider: string; model: string }>;

/** One entry of `/admin/v1/routing/models`: list prices in USD per million tokens and the output ceiling. */
export interface ModelPricing {
  family: 'openai' | 'anthropic';
  inputPerMTok: number;
  outputPerMTok: number;
  /** The gateway stores the input price when omitted. */
  cacheReadPerMTok?: number;
  cacheWritePerMTok?: number;
  maxOutputTokens?: number;
  contextTokens?: number;
}

export type ModelTable = Record<string, ModelPricing>;

export type CapReset = 'never' | 'daily' | 'weekly' | 'monthly';

/** A per-user cap entry as `GET /admin/v1/users/{user}/limits` shows it: the webhook URL is write-only (spec 000 §2). */
export interface UserLimitsView {
  monthlyTokens: number | null;
  maxUsd: number | null;
  softUsd: number | null;
  reset: CapReset;
  alerts: { thresholdsPercent: number[]; webhookConfigured: boolean } | null;
}

/** `PATCH /admin/v1/users/{user}/limits`: omitted kept, null clears, a value replaces; an omitted webhookUrl is kept. */
export interface UserLimitsPatch {
  monthlyTokens?: number | null;
  maxUsd?: number | null;
  softUsd?: number | null;
  reset?: CapReset;
  alerts?: { thresholdsPercent?: number[]; webhookUrl?: string } | null;
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

/** `PATCH /admin/v1/keys/{id}`: omitted kept, null clears. */
export interface KeyPatch {
  name?: string;
  team?: string;
  monthlyBudgetUsd?: number | null;
}

/** `/admin/v1/policies/claude-desktop` (spec 000 §2 "Desktop-client policy"). */
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
