import { describe, expect, it } from 'vitest';
import { rendezvousPick } from './rendezvous.js';

const conversations = Array.from({ length: 20_000 }, (_, index) => `caller-${index % 97}\u0000opening\u0000${index}`);

function split(candidates: Array<{ id: string; weight: number }>) {
  const counts = new Map<string, number>();
  const assignment = new Map<string, string>();
  for (const key of conversations) {
    const picked = rendezvousPick(key, candidates)!.id;
    counts.set(picked, (counts.get(picked) ?? 0) + 1);
    assignment.set(key, picked);
  }
  return { counts, assignment };
}

describe('weighted rendezvous hashing', () => {
  it('splits 20,000 conversations within ±2% of the weights', () => {
    const candidates = [
      { id: 'openai:gpt-4.1', weight: 5 },
      { id: 'azure:gpt-4.1', weight: 3 },
      { id: 'anthropic:claude-sonnet-4-5', weight: 2 },
    ];
    const { counts } = split(candidates);
    for (const candidate of candidates)
      expect(Math.abs((counts.get(candidate.id) ?? 0) / conversations.length - candidate.weight / 10)).toBeLessThan(
        0.02,
      );
  });

  it('never moves a conversation while the config is unchanged', () => {
    const candidates = [
      { id: 'a', weight: 1 },
      { id: 'b', weight: 1 },
    ];
    const first = split(candidates).assignment;
    const second = split(candidates.slice().reverse()).assignment;
    for (const key of conversations) expect(second.get(key)).toBe(first.get(key));
  });

  it('adding a target of weight w to total W moves w/(W+w) of conversations, all to the new target', () => {
    const before = [
      { id: 'a', weight: 3 },
      { id: 'b', weight: 1 },
    ];
    const after = [...before, { id: 'c', weight: 2 }];
    const original = split(before).assignment;
    const changed = split(after).assignment;
    let moved = 0;
    for (const key of conversations) {
      if (changed.get(key) === original.get(key)) continue;
      moved += 1;
      expect(changed.get(key)).toBe('c');
    }
    expect(Math.abs(moved / conversations.length - 2 / 6)).toBeLessThan(0.02);
  });

  it('changing one weight moves only conversations to or from that target', () => {
    const original = split([
      { id: 'a', weight: 1 },
      { id: 'b', weight: 1 },
      { id: 'c', weight: 1 },
    ]).assignment;
    const changed = split([
      { id: 'a', weight: 2 },
      { id: 'b', weight: 1 },
      { id: 'c', weight: 1 },
    ]).assignment;
    for (const key of conversations) {
      if (changed.get(key) !== original.get(key)) expect(changed.get(key)).toBe('a');
    }
  });

  it('ignores zero-weight targets and returns nothing when none can win', () => {
    expect(rendezvousPick('k', [{ id: 'a', weight: 0 }])).toBeUndefined();
    expect(
      rendezvousPick('k', [
        { id: 'a', weight: 0 },
        { id: 'b', weight: 1 },
      ])?.id,
    ).toBe('b');
  });
});
