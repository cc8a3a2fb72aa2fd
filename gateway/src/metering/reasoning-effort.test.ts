import { describe, expect, it } from 'vitest';
import { reasoningEffortOf } from './reasoning-effort.js';

describe('reasoningEffortOf', () => {
  it.each([
    [{ reasoning_effort: 'high' }, 'high'],
    [{ reasoning: { effort: 'minimal' } }, 'minimal'],
    [{ output_config: { effort: 'xhigh' } }, 'xhigh'],
    [{ thinking: { type: 'enabled', level: 'max' } }, 'max'],
    [{ thinkingConfig: { thinkingLevel: 'low' } }, 'low'],
    [{ additionalModelRequestFields: { reasoning_effort: 'medium' } }, 'medium'],
    [{ additionalModelRequestFields: { thinking: { type: 'disabled' } } }, 'none'],
    [{ thinking: { type: 'disabled' } }, 'none'],
    [{ thinking: { type: 'enabled', budget_tokens: 0 } }, 'none'],
    [{ reasoning_effort: 'none' }, 'none'],
  ])('reads %j as %s', (body, expected) => {
    expect(reasoningEffortOf(body)).toBe(expected);
  });

  it.each([
    [{ thinking: { type: 'enabled', budget_tokens: 4096 } }],
    [{ model: 'gpt-4.1' }],
    [{ reasoning_effort: 'turbo' }],
    [undefined],
    [{ reasoning: 'high' }],
  ])('records nothing for %j', (body) => {
    expect(reasoningEffortOf(body)).toBeNull();
  });
});
