import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/golden.js';
import { planWindowStub, windowBudget, windowLimitTokens } from './window-budget.js';

describe('window_budget', () => {
  it('fits under the lower of the model window and the client budget, less 5%', () => {
    expect(windowLimitTokens(200_000, 120_000)).toBe(114_000);
    expect(windowLimitTokens(128_000, undefined)).toBe(121_600);
    expect(windowLimitTokens(undefined, undefined)).toBe(180_500);
  });

  it('cuts an output to its first lines and a retrieve hint', () => {
    const input = fixture('tap-failures.txt');
    const planned = planWindowStub(input, 'in_place');
    const lines = planned?.text.split('\n') ?? [];
    expect(lines.slice(0, 6)).toEqual(input.split('\n').slice(0, 6));
    expect(lines[6]).toMatch(
      /^\[\.\.\. window budget: [\d,]+ more lines \([\d,]+ characters\) of this tool output elided \(trimmed; not retrievable\) \.\.\.\]$/,
    );
    expect(windowBudget.render(input, planned!.recipe)).toBe(planned?.text);
  });

  it('counts the lines it hides as retrieve counts them: a trailing newline opens no extra line', () => {
    const input = `${Array.from({ length: 20 }, (_, index) => `step ${index + 1} of the build finished without output`).join('\n')}\n`;
    expect(planWindowStub(input, 'in_place')?.text).toContain('window budget: 14 more lines');
  });
});
