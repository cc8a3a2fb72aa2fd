import { describe, expect, it } from 'vitest';
import { createIdSource } from './ids.js';
import { buildReply, sampleArguments, splitIntoDeltas, type ConversationSummary } from './reply.js';

const base: ConversationSummary = {
  model: 'm',
  messageCount: 1,
  lastUserText: 'hello',
  promptChars: 40,
  tools: [],
  toolChoice: { kind: 'auto' },
  maxTokens: undefined,
  thinking: false,
};
const ids = createIdSource();
const tool = {
  name: 'search',
  schema: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } }, required: ['q'] },
};

describe('buildReply', () => {
  it('echoes a short summary of the request, deterministically', () => {
    const reply = buildReply(base, undefined, ids, 'call_');
    expect(reply.text).toBe('Simulated reply from m to 1 message(s). You said: "hello"');
    expect(buildReply(base, undefined, ids, 'call_').text).toBe(reply.text);
    expect(reply.finishReason).toBe('stop');
    expect(reply.usage).toEqual({
      inputTokens: 10,
      outputTokens: Math.ceil(reply.text.length / 4),
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('calls a tool only when offered and asked for', () => {
    expect(buildReply({ ...base, lastUserText: 'call tool search' }, undefined, ids, 'call_').toolCalls).toEqual([]);
    const reply = buildReply(
      { ...base, tools: [tool], lastUserText: 'please call tool search' },
      undefined,
      ids,
      'call_',
    );
    expect(reply.finishReason).toBe('tool_calls');
    expect(reply.text).toBe('');
    expect(reply.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: 'search', arguments: '{"q":"sample"}' },
    ]);
  });

  it('passes explicit arguments through verbatim, even when they are not valid JSON', () => {
    const reply = buildReply(
      { ...base, tools: [tool], lastUserText: 'call tool search with {"q": broken}' },
      undefined,
      ids,
      'call_',
    );
    expect(reply.toolCalls[0]?.arguments).toBe('{"q": broken}');
  });

  it('honours a forced tool choice and "none"', () => {
    expect(
      buildReply({ ...base, tools: [tool], toolChoice: { kind: 'required' } }, undefined, ids, 'x').toolCalls[0]?.name,
    ).toBe('search');
    expect(
      buildReply({ ...base, tools: [tool], toolChoice: { kind: 'named', name: 'search' } }, undefined, ids, 'x')
        .toolCalls,
    ).toHaveLength(1);
    expect(
      buildReply(
        { ...base, tools: [tool], toolChoice: { kind: 'none' }, lastUserText: 'call tool search' },
        undefined,
        ids,
        'x',
      ).toolCalls,
    ).toEqual([]);
  });

  it('truncates at max tokens with finish reason "length"', () => {
    const reply = buildReply({ ...base, maxTokens: 2 }, undefined, ids, 'x');
    expect(reply.text).toBe('Simulate');
    expect(reply.finishReason).toBe('length');
  });

  it('lets a spec override text, tool calls, thinking and individual usage numbers', () => {
    const reply = buildReply(
      base,
      {
        text: 'hi',
        thinking: 'hmm',
        usage: { cachedInputTokens: 5 },
        toolCalls: [{ name: 'f', arguments: { a: 1 }, id: 'call_1' }],
      },
      ids,
      'x',
    );
    expect(reply).toMatchObject({
      text: 'hi',
      thinking: 'hmm',
      finishReason: 'tool_calls',
      toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"a":1}' }],
    });
    expect(reply.usage).toMatchObject({ inputTokens: 10, cachedInputTokens: 5, reasoningTokens: 1 });
  });
});

describe('helpers', () => {
  it('fills required schema properties by type', () => {
    expect(
      sampleArguments({
        type: 'object',
        properties: {
          a: { enum: ['x', 'y'] },
          b: { type: 'boolean' },
          c: { type: 'object', properties: { d: { type: 'number' } }, required: ['d'] },
        },
        required: ['a', 'b', 'c'],
      }),
    ).toEqual({ a: 'x', b: true, c: { d: 1 } });
  });

  it('splits text into deltas that join back exactly', () => {
    const text = '  Hello,  streaming world! ';
    expect(splitIntoDeltas(text).join('')).toBe(text);
  });
});
