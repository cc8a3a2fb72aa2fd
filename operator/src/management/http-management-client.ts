import {
  adminKeyRecord,
  aliasDocument,
  capView,
  desktopPolicyResponse,
  keyRecord,
  meResponse,
  mintedAdminKeyResponse,
  mintedKeyResponse,
  modelsDocument,
  providerSummary,
  routingDocument,
} from '@gw/contracts/management';
import { z } from 'zod';
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

// The answers as the operator reads them: the gateway's response schemas, narrowed to the fields it models.
const meAnswer = meResponse.pick({ scopes: true });
const mintedAdminKeyAnswer = z.object({
  key: mintedAdminKeyResponse.shape.key,
  record: adminKeyRecord.pick({ id: true }),
});
const mintedKeyAnswer = z.object({ key: mintedKeyResponse.shape.key, record: keyRecord.pick({ id: true }) });
const providerListAnswer = z.object({
  providers: z.array(providerSummary.pick({ slug: true, type: true, baseUrl: true, apiVersion: true, apiKey: true })),
});
const userLimitsAnswer = capView.pick({ monthlyTokens: true, maxUsd: true, softUsd: true, reset: true, alerts: true });
const keyAnswer = keyRecord.pick({ id: true, name: true, team: true, monthlyBudgetUsd: true, status: true });
const desktopPolicyAnswer = desktopPolicyResponse.pick({ enabled: true, settings: true });

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

/**
 * Management API v1 over HTTP. Answers are parsed with the gateway's own response schemas, so a gateway that answers
 * another shape is a clear `invalid_response`, not a reconciler working on half a value; errors arrive in the v1
 * envelope.
 */
export class HttpManagementClient implements ManagementClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HttpManagementClientOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  private async call<Schema extends z.ZodType>(
    method: string,
    path: string,
    schema: Schema | null,
    body?: unknown,
    allowNotFound = false,
  ): Promise<z.output<Schema> | null> {
    let response: Response;
    try {
      response = await this.fetch(new URL(path, this.options.baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${this.options.bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new ManagementError(
        0,
        'unreachable',
        `gateway admin API unreachable: ${error instanceof Error ? error.message : String(error)}`,
      );
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
      throw new ManagementError(
        response.status,
        envelope.error?.code ?? 'http_error',
        envelope.error?.message ?? `HTTP ${response.status} on ${method} ${path}`,
      );
    }
    if (schema === null || text === '') return null;
    return this.parse(schema, text, method, path);
  }

  private parse<Schema extends z.ZodType>(
    schema: Schema,
    text: string,
    method: string,
    path: string,
  ): z.output<Schema> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ManagementError(502, 'invalid_response', `the answer to ${method} ${path} is not JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ManagementError(
        502,
        'invalid_response',
        `the answer to ${method} ${path} is not the Management API v1 shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    return parsed.data;
  }

  private async required<Schema extends z.ZodType>(
    method: string,
    path: string,
    schema: Schema,
    body?: unknown,
  ): Promise<z.output<Schema>> {
    const result = await this.call(method, path, schema, body);
    if (result === null) throw new ManagementError(502, 'empty_response', `empty response to ${method} ${path}`);
    return result;
  }

  async me(): Promise<{ scopes: string[] }> {
    const me = await this.required('GET', '/admin/v1/me', meAnswer);
    return { scopes: me.scopes };
  }

  async createAdminKey(body: AdminKeyCreate): Promise<{ key: string; id: string }> {
    const minted = await this.required('POST', '/admin/v1/admin-keys', mintedAdminKeyAnswer, body);
    return { key: minted.key, id: minted.record.id };
  }

  async listProviderKeys(): Promise<ProviderKeyState[]> {
    const list = await this.required('GET', '/admin/v1/providers', providerListAnswer);
    return list.providers.map((provider) => ({
      slug: provider.slug,
      type: provider.type,
      baseUrl: provider.baseUrl,
      apiVersion: provider.apiVersion,
      apiKey: provider.apiKey ?? null,
    }));
  }

  async putProviderKey(slug: string, body: ProviderKeyWrite): Promise<void> {
    // A gw-upstream provider is written in the upstream-gateway spelling, custom_host and api_key.
    const wire =
      body.type === 'gw-upstream' ? { type: body.type, custom_host: body.baseUrl, api_key: body.apiKey } : body;
    await this.call('PUT', `/admin/v1/providers/${encodeURIComponent(slug)}/key`, null, wire);
  }

  async deleteProviderKey(slug: string): Promise<void> {
    await this.call('DELETE', `/admin/v1/providers/${encodeURIComponent(slug)}/key`, null, undefined, true);
  }

  async getRouting(): Promise<RoutingDocument> {
    const routing = await this.required('GET', '/admin/v1/routing', routingDocument);
    return {
      defaultProvider: routing.defaultProvider ?? null,
      defaultModel: routing.defaultModel ?? null,
      config: routing.config ?? null,
    };
  }

  async putRouting(document: RoutingDocument): Promise<void> {
    await this.call('PUT', '/admin/v1/routing', null, {
      defaultProvider: document.defaultProvider,
      defaultModel: document.defaultModel,
      config: document.config,
    });
  }

  async getAliases(): Promise<ModelAliases> {
    return (await this.required('GET', '/admin/v1/routing/aliases', aliasDocument)).aliases;
  }

  async putAliases(aliases: ModelAliases): Promise<void> {
    await this.call('PUT', '/admin/v1/routing/aliases', null, { aliases });
  }

  async getModels(): Promise<ModelTable> {
    return (await this.required('GET', '/admin/v1/routing/models', modelsDocument)).models;
  }

  async putModels(models: ModelTable): Promise<void> {
    await this.call('PUT', '/admin/v1/routing/models', null, { models });
  }

  async getUserLimits(user: string): Promise<UserLimitsView | null> {
    const view = await this.call(
      'GET',
      `/admin/v1/users/${encodeURIComponent(user)}/limits`,
      userLimitsAnswer,
      undefined,
      true,
    );
    if (view === null) return null;
    const alerts = view.alerts
      ? { thresholdsPercent: view.alerts.thresholdsPercent, webhookConfigured: view.alerts.webhookConfigured }
      : null;
    return { monthlyTokens: view.monthlyTokens, maxUsd: view.maxUsd, softUsd: view.softUsd, reset: view.reset, alerts };
  }

  async patchUserLimits(user: string, patch: UserLimitsPatch): Promise<void> {
    await this.call('PATCH', `/admin/v1/users/${encodeURIComponent(user)}/limits`, null, patch);
  }

  async clearUserLimits(user: string): Promise<void> {
    // null clears a field; an entry that limits nothing and alerts nobody is removed.
    await this.call(
      'PATCH',
      `/admin/v1/users/${encodeURIComponent(user)}/limits`,
      null,
      { monthlyTokens: null, maxUsd: null, softUsd: null, alerts: null },
      true,
    );
  }

  async createServiceKey(body: ServiceKeyCreate): Promise<{ key: string; id: string }> {
    const minted = await this.required('POST', '/admin/v1/keys', mintedKeyAnswer, { type: 'service', ...body });
    return { key: minted.key, id: minted.record.id };
  }

  async getKey(id: string): Promise<KeyState | null> {
    const record = await this.call('GET', `/admin/v1/keys/${encodeURIComponent(id)}`, keyAnswer, undefined, true);
    return record === null
      ? null
      : {
          id: record.id,
          name: record.name,
          team: record.team,
          monthlyBudgetUsd: record.monthlyBudgetUsd,
          status: record.status,
        };
  }

  async patchKey(id: string, body: KeyPatch): Promise<void> {
    await this.call('PATCH', `/admin/v1/keys/${encodeURIComponent(id)}`, null, body);
  }

  async revokeKey(id: string): Promise<void> {
    await this.call('DELETE', `/admin/v1/keys/${encodeURIComponent(id)}`, null, undefined, true);
  }

  async getDesktopPolicy(): Promise<DesktopPolicyDocument> {
    const policy = await this.required('GET', '/admin/v1/policies/claude-desktop', desktopPolicyAnswer);
    return { enabled: policy.enabled, settings: policy.settings };
  }

  async putDesktopPolicy(document: DesktopPolicyDocument): Promise<void> {
    await this.call('PUT', '/admin/v1/policies/claude-desktop', null, {
      enabled: document.enabled,
      settings: document.settings,
    });
  }
}
