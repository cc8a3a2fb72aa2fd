import {
  ManagementError,
  type AdminKeyCreate,
  type DesktopPolicyDocument,
  type KeyState,
  type ManagementClient,
  type ModelAlias,
  type ModelEntry,
  type ProviderKeyState,
  type ProviderKeyWrite,
  type RoutingDocument,
  type ServiceKeyCreate,
  type UserLimits,
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
    return this.required('GET', '/admin/v1/me');
  }

  async createAdminKey(body: AdminKeyCreate): Promise<{ key: string; id: string }> {
    const minted = await this.required<{ key: string; record: { id: string } }>('POST', '/admin/v1/admin-keys', body);
    return { key: minted.key, id: minted.record.id };
  }

  async listProviderKeys(): Promise<ProviderKeyState[]> {
    const list = await this.required<{ providers: ProviderKeyState[] }>('GET', '/admin/v1/providers');
    return list.providers;
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
    return this.required('GET', '/admin/v1/routing');
  }

  async putRouting(document: RoutingDocument): Promise<void> {
    await this.call('PUT', '/admin/v1/routing', document);
  }

  async getAliases(): Promise<ModelAlias[]> {
    return (await this.required<{ aliases: ModelAlias[] }>('GET', '/admin/v1/routing/aliases')).aliases;
  }

  async putAliases(aliases: ModelAlias[]): Promise<void> {
    await this.call('PUT', '/admin/v1/routing/aliases', { aliases });
  }

  async getModels(): Promise<ModelEntry[]> {
    return (await this.required<{ models: ModelEntry[] }>('GET', '/admin/v1/routing/models')).models;
  }

  async putModels(models: ModelEntry[]): Promise<void> {
    await this.call('PUT', '/admin/v1/routing/models', { models });
  }

  async getUserLimits(user: string): Promise<UserLimits | null> {
    return this.call('GET', `/admin/v1/users/${encodeURIComponent(user)}/limits`, undefined, true);
  }

  async putUserLimits(user: string, limits: UserLimits): Promise<void> {
    // PATCH with every field present replaces the entry (spec 000 §2: omitted kept, null clears, value replaces).
    await this.call('PATCH', `/admin/v1/users/${encodeURIComponent(user)}/limits`, limits);
  }

  async deleteUserLimits(user: string): Promise<void> {
    await this.call('PATCH', `/admin/v1/users/${encodeURIComponent(user)}/limits`, { monthlyTokens: null, maxUsd: null, softUsd: null, alerts: null }, true);
  }

  async createServiceKey(body: ServiceKeyCreate): Promise<{ key: string; id: string }> {
    const minted = await this.required<{ key: string; record: { id: string } }>('POST', '/admin/v1/keys', { type: 'service', ...body });
    return { key: minted.key, id: minted.record.id };
  }

  async getKey(id: string): Promise<KeyState | null> {
    return this.call('GET', `/admin/v1/keys/${encodeURIComponent(id)}`, undefined, true);
  }

  async patchKey(id: string, body: { monthlyBudgetUsd: number | null }): Promise<void> {
    await this.call('PATCH', `/admin/v1/keys/${encodeURIComponent(id)}`, body);
  }

  async revokeKey(id: string): Promise<void> {
    await this.call('DELETE', `/admin/v1/keys/${encodeURIComponent(id)}`, undefined, true);
  }

  async getDesktopPolicy(): Promise<DesktopPolicyDocument | null> {
    return this.call('GET', '/admin/v1/policies/claude-desktop', undefined, true);
  }

  async putDesktopPolicy(document: DesktopPolicyDocument): Promise<void> {
    await this.call('PUT', '/admin/v1/policies/claude-desktop', document);
  }
}
