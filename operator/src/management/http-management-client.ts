import {
  ManagementError,
  type AdminKeyCreate,
  type DesktopPolicyDocument,
  type KeyPatch,
  type KeyState,
  type ManagementClient,
  type ModelAliases,
  type ModelTable,
  type ProviderKeyState,
  type ProviderKeyWrite,
  type RoutingDocument,
  type ServiceKeyCreate,
  type UserLimitsPatch,
  type UserLimitsView,
} from './management-client.js';

export interface HttpManagementClientOptions {
  /** Gateway base URL, e.g. the in-cluster Service `http://gw-gateway.ns.svc:8787`. */
  baseUrl: string;
  /** The operator's `aak_` key, or the admin token while minting it. */
  bearer: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface ErrorEnvelope {
  error?: { code?: string; message?: string };
}

/** Management API v1 over HTTP (spec 000 §4.8); errors arrive in the v1 envelope (spec 000 §7). */
export class HttpManagementClient implements ManagementClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HttpManagementClientOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  private async call<T>(method: string, path: string, body?: unknown, allowNotFound = false): Promise<T | null> {
    let response: Response;
    try {
      response = await this.fetch(new URL(path, this.options.baseUrl), {
        method,
        headers: { authorization: `Bearer ${this.options.bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new ManagementError(0, 'unreachable', `gateway admin API unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (allowNotFound && response.status === 404) return null;
    const text = await response.text();
    if (!response.ok) {
      let envelope: ErrorEnvelope = {};
      try {
        envelope = JSON.parse(text) as ErrorEnvelope;
      } catch {
        // not the v1 envelope (a proxy in between); keep the status
      }
      throw new ManagementError(response.status, envelope.error?.code ?? 'http_error', envelope.error?.message ?? `HTTP ${response.status} on ${method} ${path}`);
    }
    return (text === '' ? null : JSON.parse(text)) as T | null;
  }

  private async required<T>(method: string, path: string, body?: unknown): Promise<T> {
    const result = await this.call<T>(method, path, body);
    if (result === null) throw new ManagementError(502, 'empty_response', `empty response to ${method} ${path}`);
    return result;
  }

  async me(): Promise<{ scopes: string[] }> {
    const me = await this.required<{ scopes: string[] }>('GET', '/admin/v1/me');
    return { scopes: me.scopes };
  }

  async createAdminKey(body: AdminKeyCreate): Promise<{ key: string; id: string }> {
    const minted = await this.required<{ key: string; record: { id: string } }>('POST', '/admin/v1/admin-keys', body);
    return { key: minted.key, id: minted.record.id };
  }

  async listProviderKeys(): Promise<ProviderKeyState[]> {
    const list = await this.required<{ providers: (ProviderKeyState & { apiKey?: string | null })[] }>('GET', '/admin/v1/providers');
    return list.providers.map((provider) => ({ slug: provider.slug, type: provider.type, baseUrl: provider.baseUrl, apiVersion: provider.apiVersion, apiKey: provider.apiKey ?? null }));
  }

  async putProviderKey(slug: string, body: ProviderKeyWrite): Promise<void> {
    // spec 000 §1.14: a gw-upstream provider is written with custom_host and api_key.
    const wire = body.type === 'gw-upstream' ? { type: body.type, custom_host: body.baseUrl, api_key: body.apiKey } : body;
    await this.call('PUT', `/admin/v1/providers/${encodeURIComponent(slug)}/key`, wire);
  }

  async deleteProviderKey(slug: string): Promise<void> {
    await this.call('DELETE', `/admin/v1/providers/${encodeURIComponent(slug)}/key`, undefined, true);
  }

  async getRouting(): Promise<RoutingDocument> {
    const routing = await this.required<Partial<RoutingDocument>>('GET', '/admin/v1/routing');
    return { defaultProvider: routing.defaultProvider ?? null, defaultModel: routing.defaultModel ?? null, config: routing.config ?? null };
  }

  async putRouting(document: RoutingDocument): Promise<void> {
    await this.call('PUT', '/admin/v1/routing', { defaultProvider: document.defaultProvider, defaultModel: document.defaultModel, config: document.config });
  }

  async getAliases(): Promise<ModelAliases> {
    return (await this.required<{ aliases: ModelAliases }>('GET', '/admin/v1/routing/aliases')).aliases;
  }

  async putAliases(aliases: ModelAliases): Promise<void> {
    await this.call('PUT', '/admin/v1/routing/aliases', { aliases });
  }

  async getModels(): Promise<ModelTable> {
    return (await this.required<{ models: ModelTable }>('GET', '/admin/v1/routing/models')).models;
  }

  async putModels(models: ModelTable): Promise<void> {
    await this.call('PUT', '/admin/v1/routing/models', { models });
  }

  async getUserLimits(user: string): Promise<UserLimitsView | null> {
    const view = await this.call<UserLimitsView>('GET', `/admin/v1/users/${encodeURIComponent(user)}/limits`, undefined, true);
    if (view === null) return null;
    const alerts = view.alerts ? { thresholdsPercent: view.alerts.thresholdsPercent, webhookConfigured: view.alerts.webhookConfigured } : null;
    return { monthlyTokens: view.monthlyTokens, maxUsd: view.maxUsd, softUsd: view.softUsd, reset: view.reset, alerts };
  }

  async patchUserLimits(user: string, patch: UserLimitsPatch): Promise<void> {
    await this.call('PATCH', `/admin/v1/users/${encodeURIComponent(user)}/limits`, patch);
  }

  async clearUserLimits(user: string): Promise<void> {
    // spec 000 §2: null clears a field; an entry that limits nothing and alerts nobody is removed.
    await this.call('PATCH', `/admin/v1/users/${encodeURIComponent(user)}/limits`, { monthlyTokens: null, maxUsd: null, softUsd: null, alerts: null }, true);
  }

  async createServiceKey(body: ServiceKeyCreate): Promise<{ key: string; id: string }> {
    const minted = await this.required<{ key: string; record: { id: string } }>('POST', '/admin/v1/keys', { type: 'service', ...body });
    return { key: minted.key, id: minted.record.id };
  }

  async getKey(id: string): Promise<KeyState | null> {
    const record = await this.call<KeyState>('GET', `/admin/v1/keys/${encodeURIComponent(id)}`, undefined, true);
    return record === null ? null : { id: record.id, name: record.name, team: record.team, monthlyBudgetUsd: record.monthlyBudgetUsd, status: record.status };
  }

  async patchKey(id: string, body: KeyPatch): Promise<void> {
    await this.call('PATCH', `/admin/v1/keys/${encodeURIComponent(id)}`, body);
  }

  async revokeKey(id: string): Promise<void> {
    await this.call('DELETE', `/admin/v1/keys/${encodeURIComponent(id)}`, undefined, true);
  }

  async getDesktopPolicy(): Promise<DesktopPolicyDocument> {
    const policy = await this.required<DesktopPolicyDocument>('GET', '/admin/v1/policies/claude-desktop');
    return { enabled: policy.enabled, settings: policy.settings };
  }

  async putDesktopPolicy(document: DesktopPolicyDocument): Promise<void> {
    await this.call('PUT', '/admin/v1/policies/claude-desktop', { enabled: document.enabled, settings: document.settings });
  }
}
