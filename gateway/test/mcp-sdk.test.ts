import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  startRetrievalStack,
  startTestOptimizer,
  toolOutput,
  type RetrievalStack,
  type TestOptimizer,
} from './mcp-support.js';

type TextBlock = { type: 'text'; text: string };

/** The official MCP SDK client against the gateway's /mcp, with the client key in a custom header. */
async function connectClient(baseUrl: string, headers: Record<string, string>) {
  const client = new Client({ name: 'gw-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, transport, errors };
}

const texts = (result: unknown) => (result as { content: TextBlock[] }).content.map((block) => block.text);

describe('official MCP SDK client against /mcp with the real optimizer behind it', () => {
  let optimizer: TestOptimizer;
  let stack: RetrievalStack;
  const clients: Client[] = [];

  beforeAll(async () => {
    optimizer = await startTestOptimizer();
    stack = await startRetrievalStack(optimizer.url);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await stack?.close();
    await optimizer?.close();
  });

  const connect = async (headers: Record<string, string> = { authorization: `Bearer ${stack.key}` }) => {
    const connection = await connectClient(stack.baseUrl, headers);
    clients.push(connection.client);
    return connection;
  };

  it('connects without a session id, negotiates the latest protocol and lists both tools with input schemas', async () => {
    const { client, transport, errors } = await connect({ 'x-gw-api-key': stack.key });
    expect(transport.sessionId).toBeUndefined();
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(client.getServerVersion()).toMatchObject({ name: 'gw-retrieval' });
    expect(client.getInstructions()).toContain('gw_retrieve');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['gw_retrieve', 'gw_recall']);
    const [retrieve, recall] = tools;
    expect(retrieve?.inputSchema).toMatchObject({
      type: 'object',
      required: ['handle'],
      properties: {
        handle: { type: 'string' },
        startLine: { type: 'integer' },
        endLine: { type: 'integer' },
        grep: { type: 'string', maxLength: 256 },
      },
    });
    expect(recall?.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string' } },
    });
    expect(retrieve?.description).toMatch(/ctx_/);
    expect(await client.ping()).toEqual({});
    // The optional GET stream after notifications/initialized got exactly 405, which the SDK takes as "no stream".
    expect(errors).toEqual([]);
  });

  it('gw_retrieve returns the original bytes of a stashed tool output', async () => {
    const original = toolOutput();
    const handle = await optimizer.stash(original);
    const { client } = await connect();
    const result = await client.callTool({ name: 'gw_retrieve', arguments: { handle } });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual([original]);
  });

  it('gw_retrieve serves a line range and a grep, and says what was cut', async () => {
    const handle = await optimizer.stash(toolOutput());
    const { client } = await connect();

    const range = await client.callTool({ name: 'gw_retrieve', arguments: { handle, startLine: 10, endLine: 12 } });
    expect(range.isError).toBeFalsy();
    const [rangeText, rangeNote] = texts(range);
    expect(rangeText).toBe('  PASS test 10: ok\n  PASS test 11: ok\n  PASS test 12: ok');
    expect(rangeNote).toContain('lines 10-12 of 61');

    const grep = await client.callTool({ name: 'gw_retrieve', arguments: { handle, grep: 'ÜNÏCODE' } });
    expect(grep.isError).toBeFalsy();
    const [grepText, grepNote] = texts(grep);
    expect(grepText).toContain('42:  FAIL src/parser.test.ts › handles ünïcode');
    expect(grepText).toContain('39-  PASS test 39: ok');
    expect(grepText).not.toContain('PASS test 30');
    expect(grepNote).toContain('1 matching line');
  });

  it('answers an unknown handle and bad arguments in-band with isError', async () => {
    const { client } = await connect();
    const unknown = await client.callTool({ name: 'gw_retrieve', arguments: { handle: 'ctx_doesnotexist0000000000' } });
    expect(unknown.isError).toBe(true);
    expect(texts(unknown)[0]).toMatch(/unknown or has expired/);

    const longGrep = await client.callTool({
      name: 'gw_retrieve',
      arguments: { handle: 'ctx_x', grep: 'x'.repeat(257) },
    });
    expect(longGrep.isError).toBe(true);
    expect(texts(longGrep)[0]).toMatch(/grep must be at most 256 characters/);

    const blankGrep = await client.callTool({ name: 'gw_retrieve', arguments: { handle: 'ctx_x', grep: '   ' } });
    expect(blankGrep.isError).toBe(true);
    expect(texts(blankGrep)[0]).toMatch(/non-whitespace/);
  });

  it('gw_recall finds a stashed output by its words and names the handle', async () => {
    const handle = await optimizer.stash(
      `${toolOutput(30)}\nsegmentation fault in quantum_flux_capacitor at frame 7\n`,
    );
    const { client } = await connect();
    const result = await client.callTool({
      name: 'gw_recall',
      arguments: { query: 'quantum_flux_capacitor segmentation fault' },
    });
    expect(result.isError).toBeFalsy();
    const [text] = texts(result);
    expect(text).toContain(handle);
    expect(text).toMatch(/^1\. ctx_/);

    const retrieved = await client.callTool({ name: 'gw_retrieve', arguments: { handle, grep: 'quantum_flux' } });
    expect(texts(retrieved)[0]).toContain('segmentation fault in quantum_flux_capacitor');
  });

  it('an unknown tool is a protocol error the SDK raises', async () => {
    const { client } = await connect();
    await expect(client.callTool({ name: 'gw_read', arguments: {} })).rejects.toThrow(/Unknown tool: gw_read/);
  });

  it('a bad key fails the connection with the machine envelope in the error', async () => {
    const failure = connectClient(stack.baseUrl, { authorization: 'Bearer ark_notarealkeynotarealkeynotarealkey' });
    await expect(failure).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/"code":"key_unknown".*A valid client key is required/),
    });
  });

  it('reports retrieval unavailable in-band when the optimizer is gone', async () => {
    const lonely = await startRetrievalStack(null);
    try {
      const connection = await connectClient(lonely.baseUrl, { authorization: `Bearer ${lonely.key}` });
      clients.push(connection.client);
      const result = await connection.client.callTool({ name: 'gw_retrieve', arguments: { handle: 'ctx_abc' } });
      expect(result.isError).toBe(true);
      expect(texts(result)[0]).toMatch(/retrieval is unavailable/);
      const recall = await connection.client.callTool({ name: 'gw_recall', arguments: { query: 'anything' } });
      expect(recall.isError).toBeFalsy();
      expect(texts(recall)[0]).toMatch(/nothing stashed/);
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await lonely.close();
    }
  });
});
