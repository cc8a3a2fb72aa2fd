import { describe, expect, it } from 'vitest';
import { withUsageRequested } from './prepare-body.js';

const splice = (raw: string) => withUsageRequested(Buffer.from(raw))?.toString('utf8') ?? null;

describe('withUsageRequested', () => {
  it('adds the usage request as the first member and keeps every other byte', () => {
    const raw =
      '{"model":"gpt-4.1","temperature":1.0,"seed":12345678901234567890,"messages":[{"role":"user","content":"caf\\u00e9 ☕"}]}';
    const spliced = splice(raw);
    expect(spliced).toBe(`{"stream_options":{"include_usage":true},${raw.slice(1)}`);
    expect(JSON.parse(spliced!)).toMatchObject({ stream_options: { include_usage: true }, model: 'gpt-4.1' });
  });

  it('keeps leading whitespace and needs no comma in an empty object', () => {
    expect(splice(' \n\t{ "model":"m"}')).toBe(' \n\t{"stream_options":{"include_usage":true}, "model":"m"}');
    expect(JSON.parse(splice('{ \n}')!)).toEqual({ stream_options: { include_usage: true } });
  });

  it('declines what does not start as an object', () => {
    expect(splice('[1]')).toBeNull();
    expect(splice('\uFEFF{"model":"m"}')).toBeNull();
    expect(splice('')).toBeNull();
  });
});
