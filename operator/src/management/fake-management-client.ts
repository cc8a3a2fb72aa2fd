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

/**
 * An in-memory gateway admin plane for reconciler tests: it keeps state the way the gateway does, records every
 * write, and can be made to fail. Tests change `state` directly to simulate drift made through the admin API.
 */
export class FakeManagementClient implements ManagementClient {
  readonly state = {
    providers: new Map<string, ProviderKeyState>(),
    routing: { defaultProvider: null } as RoutingDocument,
    aliases: [] as ModelAlias[],
    models: [] as ModelEntry[],
    userLimits: new Map<string, UserLimits>(),
    keys: new Map<string, KeyState>(),
    desktopPolicy: null as DesktopPolicyDocument | null,
    adminKeys: [] as (AdminKeyCreate & { id: string })[],
  };
  /** Every call, as "METHOD what", in order. */
  readonly calls: string[] = [];
  /** When set, the next calls fail with it (retryable or not, as the error says). */
  failWith: ManagementError | null = null;
  private nextId = 1;

  private record(call: string): void {
    this.calls.push(call);
    if (this.failWith) throw this.failWith;
  }

  writes(): string[] {
    return this.calls.filter((call) => !call.startsWith('GET'));
  }

  async me() {
    this.record('GET me');
    return { scopes: ['providers:write'] };
  }

  async createAdminKey(body: AdminKeyCreate) {
    this.record('POST admin-key');
    const id = `ak_${this.nextId++}`;
    this.state.adminKeys.push({ ...body, id });
    return { key: `aak_${id}`, id };
  }

  async listProviderKeys() {
    this.record('GET providers');
    return [...this.state.providers.values()].map((provider) => ({ ...provider }));
  }

  async putProviderKey(slug: string, body: ProviderKeyWrite) {
    this.record(`PUT provider ${slug}`);
    this.state.providers.set(slug, { slug, type: body.type, baseUrl: body.baseUrl ?? null, apiVersion: body.apiVersion ?? null, apiKey: body.apiKey });
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

  async putAliases(aliases: ModelAlias[]) {
    this.record('PUT aliases');
    this.state.aliases = structuredClone(aliases);
  }

  async getModels() {
    this.record('GET models');
    return structuredClone(this.state.models);
  }

  async putModels(models: ModelEntry[]) {
    this.record('PUT models');
    this.state.models = structuredClone(models);
  }

  async getUserLimits(user: string) {
    this.record(`GET limits ${user}`);
    const limits = this.state.userLimits.get(user);
    return limits ? structuredClone(limits) : null;
  }

  async putUserLimits(user: string, limits: UserLimits) {
    this.record(`PUT limits ${user}`);
    this.state.userLimits.set(user, structuredClone(limits));
  }

  async deleteUserLimits(user: string) {
    this.record(`DELETE limits ${user}`);
    this.state.userLimits.delete(user);
  }

  async createServiceKey(body: ServiceKeyCreate) {
    this.record(`POST key ${body.name}`);
    const id = `key_${this.nextId++}`;
    this.state.keys.set(id, { id, name: body.name, team: body.team, monthlyBudgetUsd: body.monthlyBudgetUsd ?? null, status: 'active' });
    return { key: `ark_svc_${id}_secret`, id };
  }

  async getKey(id: string) {
    this.record(`GET key ${id}`);
    const key = this.state.keys.get(id);
    return key ? { ...key } : null;
  }

  async patchKey(id: string, body: { monthlyBudgetUsd: number | null }) {
    this.record(`PATCH key ${id}`);
    const key = this.state.keys.get(id);
    if (!key) throw new ManagementError(404, 'not_found', `key ${id} not found`);
    key.monthlyBudgetUsd = body.monthlyBudgetUsd;
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
    this.state.desktopPolicy = structuredClone(document);
  }
}
