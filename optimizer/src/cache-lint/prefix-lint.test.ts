import { describe, expect, it } from 'vitest';
import { PrefixLint } from './prefix-lint.js';

const t0 = Date.parse('2026-11-24T12:00:00Z');
const tools = [
  {
    type: 'function',
    function: { name: 'bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
  },
  {
    type: 'function',
    function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  },
];
const conversation = [
  { role: 'user', content: 'Run the tests.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"npm test"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '2 failing\n  1) parses dates\n  2) parses times' },
  { role: 'user', content: 'Fix the first.' },
];
const chat = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4.1',
  tools,
  messages: [{ role: 'system', content: 'You are a coding agent.' }, ...messages],
  ...extra,
});
const chars = (value: unknown) => JSON.stringify(value).length;

describe('PrefixLint', () => {
  it('counts appended turns and retries of an earlier turn as cache reads, not busts', () => {
    const lint = new PrefixLint();
    lint.observe('s1', chat(conversation.slice(0, 1)), t0);
    lint.observe('s1', chat(conversation.slice(0, 3)), t0 + 30_000);
    lint.observe('s1', chat(conversation), t0 + 60_000);
    lint.observe('s1', chat(conversation.slice(0, 3)), t0 + 90_000);
    expect(lint.view(t0 + 90_000)).toEqual({ windowSeconds: 3600, turnsCompared: 3, regions: [] });
  });

  it('names the first part that changed and what it made the provider write again', () => {
    const lint = new PrefixLint();
    lint.observe(
      'stamped',
      chat(conversation.slice(0, 1), { messages: [{ role: 'system', content: 'Now: 12:00:00' }, conversation[0]] }),
      t0,
    );
    lint.observe(
      'stamped',
      chat([], { messages: [{ role: 'system', content: 'Now: 12:00:30' }, ...conversation.slice(0, 3)] }),
      t0 + 30_000,
    );
    lint.observe('edited', chat(conversation), t0);
    const edited = [
      ...conversation.slice(0, 2),
      { ...conversation[2], content: '[output removed]' },
      conversation[3],
      { role: 'user', content: 'And the second.' },
    ];
    lint.observe('edited', chat(edited), t0 + 30_000);
    lint.observe('reordered', chat(conversation), t0);
    lint.observe('reordered', chat(conversation, { tools: [...tools].reverse() }), t0 + 30_000);
    const view = lint.view(t0 + 60_000);
    expect(view.turnsCompared).toBe(3);
    const byRegion = Object.fromEntries(view.regions.map((region) => [region.region, region]));
    expect(Object.keys(byRegion).sort()).toEqual(['history', 'system', 'tools']);
    // The edited tool output is conversation message 2: it and everything after it were written again.
    expect(byRegion.history).toMatchObject({
      busts: 1,
      sessions: 1,
      estimatedTokensRewritten: Math.round((chars(conversation[2]) + chars(conversation[3])) / 4),
      lastSeenAt: '2026-11-24T12:00:30.000Z',
    });
    expect(byRegion.system.hint).toContain('system prompt');
    expect(byRegion.tools.estimatedTokensRewritten).toBeGreaterThan(byRegion.history.estimatedTokensRewritten);
    // Most tokens rewritten first.
    expect(view.regions.map((region) => region.estimatedTokensRewritten)).toEqual(
      [...view.regions.map((region) => region.estimatedTokensRewritten)].sort((a, b) => b - a),
    );
  });

  it('reads Messages bodies: the system field, a new tool_choice, a new model', () => {
    const lint = new PrefixLint();
    const messages = (extra: Record<string, unknown> = {}) => ({
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Agent.' }],
      tools: [],
      messages: [{ role: 'user', content: 'hi' }],
      ...extra,
    });
    lint.observe('a', messages(), t0);
    lint.observe('a', messages({ tool_choice: { type: 'any' } }), t0 + 1_000);
    lint.observe('a', messages({ tool_choice: { type: 'any' }, model: 'claude-haiku-4-5' }), t0 + 2_000);
    lint.observe(
      'a',
      messages({ tool_choice: { type: 'any' }, model: 'claude-haiku-4-5', system: [{ type: 'text', text: 'Agent!' }] }),
      t0 + 3_000,
    );
    expect(
      lint
        .view(t0 + 3_000)
        .regions.map((region) => [region.region, region.busts])
        .sort(),
    ).toEqual([
      ['model', 1],
      ['system', 1],
      ['tool_choice', 1],
    ]);
  });

  it('compares nothing once the provider cache expired, and forgets busts older than the window', () => {
    const lint = new PrefixLint();
    lint.observe('s', chat(conversation), t0);
    lint.observe('s', chat(conversation, { model: 'gpt-4o' }), t0 + 5 * 60_000);
    expect(lint.view(t0 + 5 * 60_000).turnsCompared).toBe(0);
    lint.observe('s', chat(conversation), t0 + 5 * 60_000 + 1_000);
    expect(lint.view(t0 + 6 * 60_000).regions).toHaveLength(1);
    expect(lint.view(t0 + 66 * 60_000)).toEqual({ windowSeconds: 3600, turnsCompared: 0, regions: [] });
  });

  it('keeps sessions apart, forgets the least recently seen beyond its bound, and reports each bust', () => {
    const seen: Array<[string, number]> = [];
    const lint = new PrefixLint({ maxSessions: 2, onBust: (region, tokens) => seen.push([region, tokens]) });
    lint.observe('a', chat(conversation), t0);
    lint.observe('b', chat(conversation, { model: 'gpt-4o' }), t0);
    lint.observe('c', chat(conversation), t0);
    lint.observe('a', chat(conversation, { model: 'o3' }), t0 + 1_000); // `a` was forgotten: nothing to compare
    lint.observe('c', chat(conversation, { model: 'o3' }), t0 + 2_000);
    expect(lint.view(t0 + 2_000)).toMatchObject({
      turnsCompared: 1,
      regions: [{ region: 'model', busts: 1, sessions: 1 }],
    });
    expect(seen).toEqual([
      [
        'model',
        Math.round(
          (chars(tools) +
            chars([null, { role: 'system', content: 'You are a coding agent.' }]) +
            conversation.reduce((sum, message) => sum + chars(message), 0)) /
            4,
        ),
      ],
    ]);
  });

  it('forgets the least recently seen sessions once the digests it holds pass their bound, however few sessions', () => {
    const lint = new PrefixLint({ maxMessages: 6 });
    lint.observe('long', chat(conversation), t0); // 4 conversation messages
    lint.observe('short', chat(conversation.slice(0, 2)), t0); // 2 more: at the bound
    lint.observe('long', chat(conversation, { model: 'o3' }), t0 + 1_000); // still remembered: compared
    lint.observe('other', chat(conversation.slice(0, 1)), t0 + 2_000); // 7 held: `short` goes
    lint.observe('short', chat(conversation.slice(0, 2), { model: 'o3' }), t0 + 3_000); // nothing to compare with
    expect(lint.view(t0 + 3_000)).toMatchObject({ turnsCompared: 1, regions: [{ region: 'model', busts: 1 }] });
  });
});
