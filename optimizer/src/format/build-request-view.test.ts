import { describe, expect, it } from 'vitest';
import { buildRequestView, detectRequestFormat } from './build-request-view.js';

const retrieveSchema = {
  type: 'object',
  properties: {
    handle: { type: 'string' },
    startLine: { type: 'integer' },
    endLine: { type: 'integer' },
    grep: { type: 'string' },
  },
  required: ['handle'],
};

describe('format adapters', () => {
  it('reads chat-completions tool messages with their call, and tells settled from fresh', () => {
    const view = buildRequestView('/v1/chat/completions', {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'file-a\nfile-b' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{}' } },
            { id: 'call_c', type: 'function', function: { name: 'bash', arguments: '{}' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_b',
          content: [
            { type: 'text', text: 'part one' },
            { type: 'image_url', image_url: { url: 'x' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_c', content: 'fresh' },
      ],
      tools: [{ type: 'function', function: { name: 'gw_retrieve', parameters: retrieveSchema } }],
    });
    expect(view?.format).toBe('openai-chat');
    expect(view?.freshStart).toBe(5);
    expect(view?.spans.map((span) => [span.key, span.toolName, span.settled])).toEqual([
      ['m3', 'bash', true],
      ['m5.p0', 'read_file', false],
      ['m6', 'bash', false],
    ]);
    expect(view?.spans[1]?.path).toEqual(['messages', 5, 'content', 0, 'text']);
    expect(view?.tools).toEqual({ declared: true, retrieveDeclared: true, choiceNone: false });
  });

  it('reads Messages tool_result blocks in user turns, including block-array contents and cache_control', () => {
    const view = buildRequestView('/v1/messages', {
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              is_error: true,
              content: [
                { type: 'text', text: 'FAIL' },
                { type: 'text', text: 'more' },
              ],
            },
            { type: 'text', text: 'and?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'fresh' }] },
      ],
      tools: [{ name: 'gw_retrieve', input_schema: retrieveSchema }],
      tool_choice: { type: 'none' },
    });
    expect(view?.format).toBe('anthropic-messages');
    expect(view?.spans.map((span) => [span.key, span.toolName, span.settled, span.isError])).toEqual([
      ['m2.p0.s0', 'Bash', true, true],
      ['m2.p0.s1', 'Bash', true, true],
      ['m4.p0', 'Bash', false, false],
    ]);
    expect(view?.spans[0]?.toolInput).toBe('{"command":"npm test"}');
    expect(view?.explicitCacheControl).toBe(true);
    expect(view?.tools).toEqual({ declared: true, retrieveDeclared: true, choiceNone: true });
  });

  it('reads Responses function_call_output items', () => {
    const view = buildRequestView('/v1/responses', {
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'fc_1', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'fc_1', output: 'settled' },
        { type: 'function_call', call_id: 'fc_2', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'fc_2', output: 'fresh' },
      ],
      tools: [{ type: 'function', name: 'gw_retrieve', parameters: retrieveSchema }],
    });
    expect(view?.spans.map((span) => [span.key, span.toolName, span.settled])).toEqual([
      ['m2', 'shell', true],
      ['m4', 'shell', false],
    ]);
    expect(view?.tools.retrieveDeclared).toBe(true);
  });

  it("treats a shell agent's settled observation turns as tool outputs when no tools are declared", () => {
    const view = buildRequestView('/v1/chat/completions', {
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: '<pr_description>fix it</pr_description>' },
        { role: 'assistant', content: 'THOUGHT: look\n```bash\nls\n```' },
        { role: 'user', content: '<returncode>0</returncode>\n<output>\na\nb\n</output>' },
        { role: 'assistant', content: 'THOUGHT: more' },
        { role: 'user', content: '<returncode>1</returncode>\n<output>\nboom\n</output>' },
      ],
    });
    expect(view?.spans.map((span) => [span.key, span.origin, span.settled])).toEqual([
      ['m3', 'observation', true],
      ['m5', 'observation', false],
    ]);
  });

  it('detects the format from the endpoint first, then from the body', () => {
    expect(detectRequestFormat('/v1/messages', { messages: [] })).toBe('anthropic-messages');
    expect(detectRequestFormat('/custom', { system: 'x', messages: [] })).toBe('anthropic-messages');
    expect(detectRequestFormat('/custom', { messages: [{ role: 'tool', content: 'x' }] })).toBe('openai-chat');
    expect(detectRequestFormat('/custom', { input: [] })).toBe('openai-responses');
    expect(detectRequestFormat('/v1/embeddings', { input: 'text' })).toBeNull();
  });
});
