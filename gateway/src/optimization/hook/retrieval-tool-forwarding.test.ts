import { describe, expect, it } from 'vitest';
import { MemoryCoord } from '@gw/platform';
import { forwardRetrievalTools } from './retrieval-tool-forwarding.js';

const marked = {
  model: 'gpt-4.1',
  messages: [
    {
      role: 'tool',
      tool_call_id: 'c1',
      content: '[... elided; call gw_retrieve with handle "ctx_AbCdEfGhIjKlMnOpQrStUvWxYz012345" ...]',
    },
  ],
  tools: [{ type: 'function', function: { name: 'bash' } }],
};
const plain = {
  model: 'gpt-4.1',
  messages: [{ role: 'user', content: 'next turn' }],
  tools: [{ type: 'function', function: { name: 'bash' } }],
};

describe('forwardRetrievalTools', () => {
  it('adds both definitions from the first marked request of a session onward, for a leased client', async () => {
    const coord = new MemoryCoord();
    expect(
      await forwardRetrievalTools({
        coord,
        sessionId: 'gws_1',
        body: plain,
        format: 'chat-completions',
        clientCanRetrieve: true,
      }),
    ).toBeNull();
    const first = await forwardRetrievalTools({
      coord,
      sessionId: 'gws_1',
      body: marked,
      format: 'chat-completions',
      clientCanRetrieve: true,
    });
    expect((first?.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual([
      'bash',
      'gw_retrieve',
      'gw_recall',
    ]);
    const later = await forwardRetrievalTools({
      coord,
      sessionId: 'gws_1',
      body: plain,
      format: 'chat-completions',
      clientCanRetrieve: true,
    });
    expect((later?.tools as unknown[]).length).toBe(3);
    expect(
      await forwardRetrievalTools({
        coord,
        sessionId: 'gws_2',
        body: plain,
        format: 'chat-completions',
        clientCanRetrieve: true,
      }),
    ).toBeNull();
  });

  it('forwards nothing without a lease or when the client already declares the tools', async () => {
    const coord = new MemoryCoord();
    expect(
      await forwardRetrievalTools({
        coord,
        sessionId: 'gws_1',
        body: marked,
        format: 'chat-completions',
        clientCanRetrieve: false,
      }),
    ).toBeNull();
    const declared = { ...marked, tools: [{ type: 'function', function: { name: 'mcp__gw__gw_retrieve' } }] };
    expect(
      await forwardRetrievalTools({
        coord,
        sessionId: 'gws_1',
        body: declared,
        format: 'chat-completions',
        clientCanRetrieve: true,
      }),
    ).toBeNull();
  });

  it('uses the Messages tool shape on the Messages lane', async () => {
    const coord = new MemoryCoord();
    const body = {
      model: 'claude-sonnet-4-5',
      messages: [
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't', content: 'ctx_AbCdEfGhIjKlMnOpQrStUvWxYz012345' }],
        },
      ],
    };
    const forwarded = await forwardRetrievalTools({
      coord,
      sessionId: 'gws_9',
      body,
      format: 'messages',
      clientCanRetrieve: true,
    });
    expect(forwarded?.tools).toEqual([
      expect.objectContaining({ name: 'gw_retrieve', input_schema: expect.objectContaining({ required: ['handle'] }) }),
      expect.objectContaining({ name: 'gw_recall' }),
    ]);
  });
});
