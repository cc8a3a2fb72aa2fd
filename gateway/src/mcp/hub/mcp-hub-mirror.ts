import type { Clock, Logger } from '@gw/platform';
import type { DesktopPolicyStore } from '../../policies/desktop-policy.store.js';
import type { McpGrantStore } from '../oauth/mcp-grant.store.js';
import { RemoteMcpClient, RemoteMcpError, RemoteMcpNeedsAuth, type RemoteTool } from './remote-mcp-client.js';
import { remoteServersOf, type RemoteServer } from './remote-servers.js';

export type ServerOutcome = 'ok' | 'needs-auth' | 'unreachable';

export interface MirroredServer {
  name: string;
  /** The server's origin only: paths and queries may carry tokens an administrator pasted. */
  origin: string;
  outcome: ServerOutcome;
  toolCount: number;
  truncated: boolean;
  durationMs: number;
  failure?: string;
}

export interface HubCounts {
  servers: number;
  ok: number;
  needsAuth: number;
  unreachable: number;
  /** Managed servers that run on the device (a command), which the hub cannot reach. */
  local: number;
  tools: number;
}

/** Content-free state of the mirror: counts and timings, never a tool's description or a server's answer. */
export interface HubStatus {
  status: 'never-synced' | 'ok' | 'degraded' | 'failed';
  lastSyncAt: string | null;
  /** Null when the last round reached no server at all. */
  lastSyncCounts: HubCounts | null;
  servers: MirroredServer[];
}

/** A mirrored tool: the remote definition under the hub's name `<server>__<tool>`. */
export interface HubTool {
  hubName: string;
  server: RemoteServer;
  tool: RemoteTool;
  /** The server wanted authorization (the hub listed it under its own grant): calls need the member's own grant. */
  authorized: boolean;
}

export interface McpHubMirrorOptions {
  policy: DesktopPolicyStore;
  clock: Clock;
  logger: Logger;
  allowPrivate: boolean;
  fetch?: typeof fetch;
  /** Tools mirrored per server (default 100); more are cut and the server is marked truncated. */
  toolsPerServer?: number;
  /** The hub's own grants: a server that wants authorization is listed under the hub's grant when there is one. */
  grants?: McpGrantStore;
}

const refreshMs = 5 * 60_000;

/**
 * The organization hub's mirror of the desktop policy's remote managed MCP servers (the contract
 * `connectors/sync` "waits one mirror round"): every round lists each remote server's tools, which `/mcp/org` then
 * serves as `<server>__<tool>` and proxies. Servers that need authorization are listed as `needs-auth` and not
 * mirrored. Each replica mirrors for itself, every five minutes and on demand.
 */
export class McpHubMirror {
  private tools: HubTool[] = [];
  private state: HubStatus = { status: 'never-synced', lastSyncAt: null, lastSyncCounts: null, servers: [] };
  private round: Promise<HubStatus> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: McpHubMirrorOptions) {}

  /** A first round now (off the boot path), then one every five minutes. */
  start(): void {
    const round = () => {
      this.sync().catch((error: unknown) => this.options.logger.warn({ err: error }, 'MCP hub mirror round failed'));
    };
    round();
    this.timer = setInterval(round, refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  status(): HubStatus {
    return this.state;
  }

  /** The mirrored tools of the last round. */
  mirrored(): readonly HubTool[] {
    return this.tools;
  }

  /** One round; a caller arriving while a round runs waits for that round. */
  sync(): Promise<HubStatus> {
    this.round ??= this.runRound().finally(() => {
      this.round = null;
    });
    return this.round;
  }

  /** A client of one server, optionally under a bearer (a grant); the bearer is never logged. */
  client(server: RemoteServer, bearer?: string | null): RemoteMcpClient {
    return new RemoteMcpClient({
      url: server.url,
      allowPrivate: this.options.allowPrivate,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    });
  }

  private async runRound(): Promise<HubStatus> {
    const policy = await this.options.policy.read();
    const { remote, local } = remoteServersOf(policy.enabled ? policy.settings.managedMcpServers : undefined);
    const results = await Promise.all(remote.map((server) => this.mirrorServer(server)));
    const servers = results.map((result) => result.summary);
    this.tools = results.flatMap((result) => result.tools);
    const counts: HubCounts = {
      servers: servers.length + local,
      ok: servers.filter((server) => server.outcome === 'ok').length,
      needsAuth: servers.filter((server) => server.outcome === 'needs-auth').length,
      unreachable: servers.filter((server) => server.outcome === 'unreachable').length,
      local,
      tools: this.tools.length,
    };
    const totalFailure = servers.length > 0 && counts.unreachable === servers.length;
    this.state = {
      status: totalFailure ? 'failed' : counts.unreachable > 0 ? 'degraded' : 'ok',
      lastSyncAt: new Date(this.options.clock.now()).toISOString(),
      lastSyncCounts: totalFailure ? null : counts,
      servers,
    };
    return this.state;
  }

  private async mirrorServer(server: RemoteServer): Promise<{ summary: MirroredServer; tools: HubTool[] }> {
    const started = performance.now();
    const base = { name: server.name, origin: new URL(server.url).origin };
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const hubBearer = (await this.options.grants?.bearer({ kind: 'hub' }, server.name)) ?? null;
      const client = this.client(server, hubBearer);
      await client.initialize();
      const listed = await client.listTools(this.options.toolsPerServer ?? 100);
      const tools = listed.tools
        .map((tool) => ({ hubName: hubToolName(server.name, tool.name), server, tool, authorized: hubBearer !== null }))
        .filter((entry) => entry.hubName.length <= 64);
      return {
        summary: {
          ...base,
          outcome: 'ok',
          toolCount: tools.length,
          truncated: listed.truncated,
          durationMs: elapsed(),
        },
        tools,
      };
    } catch (error) {
      if (error instanceof RemoteMcpNeedsAuth)
        return {
          summary: { ...base, outcome: 'needs-auth', toolCount: 0, truncated: false, durationMs: elapsed() },
          tools: [],
        };
      const failure = error instanceof RemoteMcpError ? error.failure : 'network';
      return {
        summary: { ...base, outcome: 'unreachable', toolCount: 0, truncated: false, durationMs: elapsed(), failure },
        tools: [],
      };
    }
  }
}

/** `<server>__<tool>`, in the characters every provider's tool names allow; over 64 characters the tool is left out. */
export function hubToolName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
}
