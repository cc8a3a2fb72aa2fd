import { assertSafeUpstreamUrl } from '../../providers/ssrf-guard.js';
import { latestProtocolVersion } from '../mcp-protocol.js';

/** Why a remote MCP server could not be used; content-free, safe to show an administrator and to count. */
export type RemoteFailure =
  'refused_address' | 'timeout' | 'network' | 'redirect' | 'http_error' | 'not_mcp' | 'too_large';

export class RemoteMcpError extends Error {
  constructor(
    readonly failure: RemoteFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteMcpError';
  }
}

/** The server asked for credentials: where an OAuth client learns how to get them (RFC 9728), when it said. */
export class RemoteMcpNeedsAuth extends Error {
  constructor(readonly resourceMetadata: string | null) {
    super('the MCP server requires authorization');
    this.name = 'RemoteMcpNeedsAuth';
  }
}

export interface RemoteMcpOptions {
  url: string;
  allowPrivate: boolean;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Sent on every call (an OAuth grant's bearer); never logged. */
  authorization?: string;
}

export interface RemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const maxAnswerBytes = 2 * 1024 * 1024;

/**
 * A minimal MCP client over streamable HTTP (MCP 2025-06-18 transports): one JSON-RPC request per POST, answered as
 * `application/json` or as an SSE stream whose matching message is taken. A session id the server issues at
 * `initialize` is sent back. Every connection passes the SSRF guard, redirects are refused, answers are bounded in
 * time and size.
 */
export class RemoteMcpClient {
  private sessionId: string | null = null;
  private nextId = 1;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: RemoteMcpOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** `initialize` and `notifications/initialized`; the server's name and version. */
  async initialize(): Promise<{ name: string; version: string }> {
    const result = (await this.request('initialize', {
      protocolVersion: latestProtocolVersion,
      capabilities: {},
      clientInfo: { name: 'gw-mcp-hub', version: '1' },
    })) as { serverInfo?: { name?: unknown; version?: unknown } };
    await this.notify('notifications/initialized');
    return {
      name: typeof result.serverInfo?.name === 'string' ? result.serverInfo.name : 'unknown',
      version: typeof result.serverInfo?.version === 'string' ? result.serverInfo.version : 'unknown',
    };
  }

  /** Every tool, following `nextCursor`, up to `limit`; `truncated` when the server had more. */
  async listTools(limit: number): Promise<{ tools: RemoteTool[]; truncated: boolean }> {
    const tools: RemoteTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const result = (await this.request('tools/list', cursor ? { cursor } : {})) as {
        tools?: unknown;
        nextCursor?: unknown;
      };
      if (!Array.isArray(result.tools))
        throw new RemoteMcpError('not_mcp', 'tools/list answered without a tools array');
      for (const tool of result.tools) {
        if (tools.length === limit) return { tools, truncated: true };
        if (isTool(tool)) tools.push(tool);
      }
      if (typeof result.nextCursor !== 'string' || result.nextCursor === '') return { tools, truncated: false };
      cursor = result.nextCursor;
    }
    return { tools, truncated: true };
  }

  async callTool(name: string, input: Record<string, unknown> | undefined): Promise<unknown> {
    return this.request('tools/call', { name, ...(input ? { arguments: input } : {}) });
  }

  private async notify(method: string): Promise<void> {
    await this.post({ jsonrpc: '2.0', method }, null);
  }

  private async request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    const message = await this.post({ jsonrpc: '2.0', id, method, params }, id);
    if (message === null || typeof message !== 'object')
      throw new RemoteMcpError('not_mcp', `${method} got no JSON-RPC answer`);
    const { result, error } = message as { result?: unknown; error?: { message?: unknown } };
    if (error)
      throw new RemoteMcpError(
        'not_mcp',
        `${method} failed: ${typeof error.message === 'string' ? error.message.slice(0, 200) : 'error'}`,
      );
    if (result === null || typeof result !== 'object')
      throw new RemoteMcpError('not_mcp', `${method} answered without a result`);
    return result;
  }

  private async post(message: Record<string, unknown>, id: number | null): Promise<unknown> {
    let url: URL;
    try {
      url = await assertSafeUpstreamUrl(this.options.url, { allowPrivate: this.options.allowPrivate });
    } catch {
      throw new RemoteMcpError('refused_address', 'the URL is not an allowed public https address');
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': latestProtocolVersion,
    };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    if (this.options.authorization) headers.authorization = this.options.authorization;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw (error as Error).name === 'TimeoutError'
        ? new RemoteMcpError('timeout', 'the MCP server did not answer in time')
        : new RemoteMcpError('network', 'the MCP server could not be reached');
    }
    if (response.status === 401) {
      await response.body?.cancel();
      throw new RemoteMcpNeedsAuth(resourceMetadataOf(response.headers.get('www-authenticate')));
    }
    if (response.status >= 300 && response.status < 400)
      throw new RemoteMcpError('redirect', `the MCP server redirected (HTTP ${response.status})`);
    if (!response.ok) {
      await response.body?.cancel();
      throw new RemoteMcpError('http_error', `the MCP server answered HTTP ${response.status}`);
    }
    this.sessionId = response.headers.get('mcp-session-id') ?? this.sessionId;
    const text = await boundedText(response);
    if (id === null) return null;
    const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
    return contentType.startsWith('text/event-stream') ? messageFromStream(text, id) : parseJson(text);
  }
}

function isTool(value: unknown): value is RemoteTool {
  const tool = value as Partial<RemoteTool> | null;
  return (
    typeof tool === 'object' &&
    tool !== null &&
    typeof tool.name === 'string' &&
    typeof tool.inputSchema === 'object' &&
    tool.inputSchema !== null
  );
}

async function boundedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxAnswerBytes) throw new RemoteMcpError('too_large', 'the MCP server’s answer is too large');
  const buffer = Buffer.from(await response.arrayBuffer());
  if (buffer.length > maxAnswerBytes) throw new RemoteMcpError('too_large', 'the MCP server’s answer is too large');
  return buffer.toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RemoteMcpError('not_mcp', 'the answer is not JSON');
  }
}

/** The JSON-RPC message with our id among the stream's `data:` events (a server may send notifications first). */
function messageFromStream(text: string, id: number): unknown {
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data === '') continue;
    const message = parseJson(data) as { id?: unknown };
    if (message.id === id) return message;
  }
  throw new RemoteMcpError('not_mcp', 'the event stream carried no answer');
}

/** `Bearer resource_metadata="https://…"` (RFC 9728 §5.1): the metadata URL, or null. */
function resourceMetadataOf(challenge: string | null): string | null {
  const match = /resource_metadata="?([^",\s]+)"?/i.exec(challenge ?? '');
  return match?.[1] ?? null;
}
