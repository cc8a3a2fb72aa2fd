import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { AuthorizationServerHandle } from '@gw/testkit';

export interface RemoteMcpServer {
  url: string;
  /** Tool calls the server ran, with their arguments. */
  calls: Array<{ tool: string; input: unknown }>;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const closing = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * A third-party remote MCP server, made with the official MCP SDK (stateless streamable HTTP, JSON or SSE answers):
 * one documentation-search tool. What the organization hub mirrors and relays to.
 */
export async function startRemoteMcpServer(
  options: { json?: boolean; authorizationServer?: AuthorizationServerHandle } = {},
): Promise<RemoteMcpServer> {
  const calls: RemoteMcpServer['calls'] = [];
  const { authorizationServer } = options;
  let url = '';
  const server = createServer((request, response) => {
    void (async () => {
      const origin = new URL(url).origin;
      if (authorizationServer && request.url === '/.well-known/oauth-protected-resource') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            resource: url,
            authorization_servers: [authorizationServer.issuer],
            bearer_methods_supported: ['header'],
          }),
        );
        return;
      }
      // A protected server (MCP authorization): no valid bearer of its authorization server, no MCP.
      const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      const subject = authorizationServer && bearer ? authorizationServer.subjectOf(bearer) : null;
      if (authorizationServer && subject === null) {
        response.writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
        });
        response.end();
        return;
      }
      const mcp = new McpServer({ name: 'acme-docs', version: '2.3.0' });
      mcp.registerTool(
        'search_docs',
        { description: 'Search Acme’s internal documentation', inputSchema: { query: z.string() } },
        async ({ query }) => {
          calls.push({ tool: 'search_docs', input: { query } });
          return {
            content: [
              {
                type: 'text',
                text: `3 pages match "${query}": deploy.md, review.md, oncall.md${subject ? ` (as ${subject})` : ''}`,
              },
            ],
          };
        },
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: options.json ?? false,
      });
      response.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(request, response, request.method === 'POST' ? await readJson(request) : undefined);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  url = await listening(server);
  return { url, calls, close: closing(server) };
}

/** A remote MCP server that wants OAuth: every call is 401 naming its protected-resource metadata. */
export async function startLockedMcpServer(): Promise<{ url: string; metadataUrl: string; close(): Promise<void> }> {
  let metadataUrl = '';
  const server = createServer((_request, response) => {
    response.writeHead(401, {
      'www-authenticate': `Bearer resource_metadata="${metadataUrl}"`,
      'content-type': 'application/json',
    });
    response.end(JSON.stringify({ error: 'invalid_token' }));
  });
  const url = await listening(server);
  metadataUrl = `${new URL(url).origin}/.well-known/oauth-protected-resource`;
  return { url, metadataUrl, close: closing(server) };
}
