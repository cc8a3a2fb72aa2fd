import { describe, expect, it } from 'vitest';
import { applyTextRewrites } from './apply-text-rewrites.js';

describe('applyTextRewrites', () => {
  const request = {
    model: 'gpt-4.1',
    temperature: 1.5,
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'tool', tool_call_id: 'a', content: 'long output', extra: { kept: [1, 2, 3] } },
      { role: 'user', content: [{ type: 'tool_result', content: [{ type: 'text', text: 'inner' }] }] },
    ],
    unknown_provider_field: { nested: true },
  };

  it('replaces only the addressed strings and shares every untouched branch', () => {
    const before = JSON.stringify(request);
    const out = applyTextRewrites(request, [
      { path: ['messages', 1, 'content'], text: 'short' },
      { path: ['messages', 2, 'content', 0, 'content', 0, 'text'], text: 'INNER' },
    ]);
    expect(JSON.stringify(request)).toBe(before);
    expect(JSON.stringify(out)).toBe(before.replace('"long output"', '"short"').replace('"inner"', '"INNER"'));
    const messages = out.messages as unknown[];
    expect(messages[0]).toBe(request.messages[0]);
    expect((messages[1] as { extra: unknown }).extra).toBe(request.messages[1]?.extra);
    expect(out.unknown_provider_field).toBe(request.unknown_provider_field);
  });

  it('ignores a path that does not lead to a string', () => {
    const out = applyTextRewrites(request, [
      { path: ['messages', 9, 'content'], text: 'x' },
      { path: ['messages', 1, 'extra'], text: 'x' },
    ]);
    expect(JSON.stringify(out)).toBe(JSON.stringify(request));
  });

  it('returns the very same object when there is nothing to rewrite', () => {
    expect(applyTextRewrites(request, [])).toBe(request);
  });
});
