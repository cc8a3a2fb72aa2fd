import { describe, expect, it } from 'vitest';
import { freshStart, requestPrefixes } from './turns.js';

const system = { role: 'system', content: 'agent' };
const user = { role: 'user', content: 'fix it' };
const call = { role: 'assistant', content: null, tool_calls: [] };
const tool = { role: 'tool', tool_call_id: 'call_1', content: 'output' };
const answer = { role: 'assistant', content: 'done' };

const lengths = (request: Record<string, unknown>) =>
  requestPrefixes(request).map((prefix) => (prefix.messages as unknown[]).length);

describe('requestPrefixes', () => {
  it('sends one request before each assistant message, and the transcript itself when it ends on a fresh turn', () => {
    expect(lengths({ model: 'm', messages: [system, user, call, tool, tool, call, tool] })).toEqual([2, 5, 7]);
  });

  it('sends nothing after a final assistant answer (a trajectory that ends on the model)', () => {
    expect(lengths({ messages: [system, user, call, tool, answer] })).toEqual([2, 4]);
  });

  it('keeps every other field of the request on each prefix', () => {
    const [first] = requestPrefixes({ model: 'm', tools: [], messages: [system, user, answer] });
    expect(first).toEqual({ model: 'm', tools: [], messages: [system, user] });
  });
});

describe('freshStart', () => {
  it('is the start of the trailing run of non-assistant messages', () => {
    expect(freshStart([system, user, call, tool, tool])).toBe(3);
    expect(freshStart([system, user])).toBe(0);
    expect(freshStart([system, user, answer])).toBe(3);
  });
});
