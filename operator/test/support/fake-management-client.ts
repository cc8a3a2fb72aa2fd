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
} from '../../src/management/management-client.js';
import { ChangeSignal } from './change-signal.js';

/** A stored cap entry: the view plus the write-only webhook URL the gateway keeps sealed. */
export interface FakeUserLimits extends Omit<UserLimitsView, 'alerts'> {
  alerts: { thresholdsPercent: number[]; webhookUrl: string | null } | null;
}

const defaultBaseUrls: Partial<Record<ProviderKeyState['type'], string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

/** As the gateway stores a base URL: no trailing slash, `/v1` appended for anthropic. */
function normaliseBaseUrl(type: ProviderKeyState['type'], baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return type === 'anthropic' && !/\/v\d+$/.test(trimmed) ? `${trimmed}/v1` : trimmed;
}

const invalid = (message: string) => new ManagementError(400, 'invalid_request', message);

/**
 * An in-memory gateway admin plane for reconciler tests: it keeps state the way the gateway does (normalised base
 * URLs, defaulted cache prices, a write-only webhook URL, an entry removed when it limits nothing), records every
 * call, and can be made to fail. Tests change `state` directly to simulate drift made through the admin API. The
 * conformance suite (operator/test/management-conformance.test.ts) runs against it and the real gateway alike.
 */
export class FakeManagementClient implements ManagementClient {
  readonly state = {
    providers: new Map<string, ProviderKeyState>(),
    routing: { defaultProvider: null, defaultModel: null, config: null } as RoutingDocument,
    aliases: {} as ModelAliases,
    models: {} as ModelTable,
    userLimits: new Map<string, FakeUserLimits>(),
    keys: new Map<string, KeyState>(),
    desktopPolicy: { enabled: false, settings: {} } as DesktopPolicyDocument,
    adminKeys: [] as (AdminKeyCreate & { id: string })[],
  };
  /** Every call, as "METHOD what", in order. */
  readonly calls: string[] = [];
  /** When set, the next calls fail with it (retryable or not, as the error says). */
  failWith: ManagementError | null = null;
  private nextId = 1;
  private readonly changes = new ChangeSignal();

  private record(call: string): void {
    this.calls.push(call);
    // Every call records first and changes `state` in the same turn: the check runs once that change is made.
    queueMicrotask(() => this.changes.notify());
    if (this.failWith) throw this.failWith;
  }

  /**
   * Resolves once `condition` holds on `state`, checked now and after every call the client takes; rejects naming
   * `what` when `signal` (the test's) aborts first.
   */
  until(what: string, condition: (state: FakeManagementClient['state']) => boolean, signal?: AbortSignal) {
    return this.changes.until(what, () => condition(this.state), signal);
  }

  writes(): string[] {
    return this.calls.filter((call) => !call.startsWith('GET'));
  }

  async me() {
    this.record('GET me');
    return { scopes: [...(this.state.adminKeys.at(-1)?.scopes ?? [])] };
  }

  async createAdminKey(body: AdminKeyCreate) {
    this.record('POST admin-key');
    const id = `ak_${this.nextId++}`;
    this.state.adminKeys.push({ ...body, id });
    return { key: `aak_${id}`, id };
  }

  async listProviderKeys() {
    this.record('GET providers');
    return [...this.state.providers.values()]
      .sort((left, right) => left.slug.localeCompare(right.slug))
      .map((provider) => ({ ...provider }));
  }

  async putProviderKey(slug: string, body: ProviderKeyWrite) {
    this.record(`PUT provider ${slug}`);
    const baseUrl = body.baseUrl ?? defaultBaseUrls[body.type];
    if (baseUrl === undefined) throw invalid(`body.baseUrl is required for a ${body.type} provider`);
    const apiVersion = body.type === 'gw-upstream' ? null : (body.apiVersion ?? null);
    this.state.providers.set(slug, {
      slug,
      type: body.type,
      baseUrl: normaliseBaseUrl(body.type, baseUrl),
      apiVersion,
      apiKey: body.apiKey,
    });
  }

  async deleteProviderKey(slug: string) {
    this.record(`DELETE provider ${slug}`);
    this.state.providers.delete(slug);
  }

  async getRouting() {
    this.record('GET routing');
    return structuredClone(this.state.routing);
  }

  async putRouting(document: RoutingDocument) {
    this.record('PUT routing');
    this.state.routing = structuredClone(document);
  }

  async getAliases() {
    this.record('GET aliases');
    return structuredClone(this.state.aliases);
  }

  async putAliases(aliases: ModelAliases) {
    this.record('PUT aliases');
    this.state.aliases = structuredClone(aliases);
  }

  async getModels() {
    this.record('GET models');
    return structuredClone(this.state.models);
  }

  async putModels(models: ModelTable) {
    this.record('PUT models');
    this.state.models = Object.fromEntries(
      Object.entries(structuredClone(models)).map(([name, facts]) => [
        name,
        {
          ...facts,
          cacheReadPerMTok: facts.cacheReadPerMTok ?? facts.inputPerMTok,
          cacheWritePerMTok: facts.cacheWritePerMTok ?? facts.inputPerMTok,
        },
      ]),
    );
  }

  async getUserLimits(user: string): Promise<UserLimitsView | null> {
    this.record(`GET limits ${user}`);
    const limits = this.state.userLimits.get(user);
    if (!limits) return null;
    const alerts = limits.alerts
      ? {
          thresholdsPercent: [...limits.alerts.thresholdsPercent],
          webhookConfigured: limits.alerts.webhookUrl !== null,
        }
      : null;
    return {
      monthlyTokens: limits.monthlyTokens,
      maxUsd: limits.maxUsd,
      softUsd: limits.softUsd,
      reset: limits.reset,
      alerts,
    };
  }

  async patchUserLimits(user: string, patch: UserLimitsPatch) {
    this.record(`PATCH limits ${user}`);
    const current: FakeUserLimits = structuredClone(this.state.userLimits.get(user)) ?? {
      monthlyTokens: null,
      maxUsd: null,
      softUsd: null,
      reset: 'monthly',
      alerts: null,
    };
    const next: FakeUserLimits = {
      monthlyTokens: patch.monthlyTokens === undefined ? current.monthlyTokens : patch.monthlyTokens,
      maxUsd: patch.maxUsd === undefined ? current.maxUsd : patch.maxUsd,
      softUsd: patch.softUsd === undefined ? current.softUsd : patch.softUsd,
      reset: patch.reset ?? current.reset,
      alerts:
        patch.alerts === undefined
          ? current.alerts
          : patch.alerts === null
            ? null
            : {
                thresholdsPercent: patch.alerts.thresholdsPercent ?? current.alerts?.thresholdsPercent ?? [],
                webhookUrl: patch.alerts.webhookUrl ?? current.alerts?.webhookUrl ?? null,
              },
    };
    if (next.softUsd !== null && next.maxUsd !== null && next.softUsd > next.maxUsd)
      throw invalid(`body: softUsd of ${user} must not exceed maxUsd`);
    const empty = next.monthlyTokens === null && next.maxUsd === null && next.softUsd === null && next.alerts === null;
    if (empty) this.state.userLimits.delete(user);
    else this.state.userLimits.set(user, next);
  }

  async clearUserLimits(user: string) {
    await this.patchUserLimits(user, { monthlyTokens: null, maxUsd: null, softUsd: null, alerts: null });
  }

  async createServiceKey(body: ServiceKeyCreate) {
    this.record(`POST key ${body.name}`);
    const id = `key_${this.nextId++}`;
    this.state.keys.set(id, {
      id,
      name: body.name,
      team: body.team,
      monthlyBudgetUsd: body.monthlyBudgetUsd ?? null,
      status: 'active',
    });
    return { key: `ark_svc_${id}_secret`, id };
  }

  async getKey(id: string) {
    this.record(`GET key ${id}`);
    const key = this.state.keys.get(id);
    return key ? { ...key } : null;
  }

  async patchKey(id: string, body: KeyPatch) {
    this.record(`PATCH key ${id}`);
    const key = this.state.keys.get(id);
    if (!key) throw new ManagementError(404, 'not_found', `key ${id} not found`);
    if (body.name !== undefined) key.name = body.name;
    if (body.team !== undefined) key.team = body.team;
    if (body.monthlyBudgetUsd !== undefined) key.monthlyBudgetUsd = body.monthlyBudgetUsd;
  }

  async revokeKey(id: string) {
    this.record(`DELETE key ${id}`);
    const key = this.state.keys.get(id);
    if (key) key.status = 'revoked';
  }

  async getDesktopPolicy() {
    this.record('GET desktop-policy');
    return structuredClone(this.state.desktopPolicy);
  }

  async putDesktopPolicy(document: DesktopPolicyDocument) {
    this.record('PUT desktop-policy');
    this.state.desktopPolicy = structuredClone({ enabled: document.enabled, settings: document.settings });
  }
}
