import { describe, expect, it } from 'vitest';
import { endpointScope } from './endpoint-scope.js';
import { layoutFree, nearDuplicateHash as scopedNearHash, nearDuplicateMaxChars } from './near-duplicate.js';

const chat = endpointScope('/v1/chat/completions');
const nearDuplicateHash = (request: Record<string, unknown>) => scopedNearHash(chat, request);

const ask = (content: unknown, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4.1',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content },
  ],
  ...extra,
});

describe('near-duplicate tier key', () => {
  it('ignores invisible layout only: inner space runs, NFKC forms, zero-width characters, line endings', () => {
    const key = nearDuplicateHash(ask('What is the capital of France?'));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(nearDuplicateHash(ask('What  is the\tcapital of\u00A0France?  '))).toBe(key);
    expect(nearDuplicateHash(ask('What is the ｃａｐｉｔａｌ of Fr\u200Bance?'))).toBe(key);
    expect(nearDuplicateHash(ask([{ type: 'text', text: 'What is the capital of France?' }]))).not.toBe(key);
    expect(nearDuplicateHash({ ...ask('What is the capital of France?'), stream: true, user: 'someone' })).toBe(key);
    // Never across endpoints: the answer is in the asking endpoint's wire format.
    expect(scopedNearHash(endpointScope('/v1/messages'), ask('What is the capital of France?'))).not.toBe(key);
  });

  it('keeps case, punctuation, wording, indentation and every other field significant', () => {
    const key = nearDuplicateHash(ask('What is the capital of France?'));
    for (const other of [
      ask('what is the capital of france?'),
      ask('What is the capital of France'),
      ask("What's the capital of France?"),
      ask('What is the capital of France?', { temperature: 0.2 }),
      ask('What is the capital of France?', { model: 'gpt-4o' }),
    ]) {
      expect(nearDuplicateHash(other)).not.toBe(key);
    }
    expect(nearDuplicateHash(ask('if x:\n    return 1'))).not.toBe(nearDuplicateHash(ask('if x:\n  return 1')));
    expect(layoutFree('  indented  twice\r\n\tkept')).toBe('indented twice\n\tkept');
  });

  it('declines requests outside the limits: tool traffic, images, long conversations', () => {
    expect(
      nearDuplicateHash({
        model: 'gpt-4.1',
        messages: [
          { role: 'user', content: 'ls' },
          { role: 'assistant', content: null, tool_calls: [] },
          { role: 'tool', tool_call_id: 'c', content: 'a' },
        ],
      }),
    ).toBeNull();
    expect(
      nearDuplicateHash(ask([{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }])),
    ).toBeNull();
    expect(
      nearDuplicateHash({
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }],
      }),
    ).toBeNull();
    expect(nearDuplicateHash(ask('x'.repeat(nearDuplicateMaxChars)))).toBeNull();
    expect(nearDuplicateHash({ model: 'm', prompt: 'no messages' })).toBeNull();
  });
});
