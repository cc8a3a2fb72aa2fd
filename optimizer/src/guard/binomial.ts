/**
 * One-sided binomial test: P(X ≥ successes) for X ~ Binomial(trials, rate). The low-traffic guard test (spec 001
 * ) opens a lane when this is at most 0.01 at the 20% rate, i.e. the regrets are very unlikely to be chance.
 * Summed in log space from the top of the tail so large trial counts neither overflow nor lose precision.
 */
export function binomialUpperTail(trials: number, successes: number, rate: number): number {
  if (successes <= 0) return 1;
  if (successes > trials) return 0;
  if (rate <= 0) return 0;
  if (rate >= 1) return 1;
  const logRate = Math.log(rate);
  const logMiss = Math.log1p(-rate);
  let total = 0;
  for (let k = successes; k <= trials; k += 1) {
    total += Math.exp(logChoose(trials, k) + k * logRate + (trials - k) * logMiss);
  }
  return Math.min(1, total);
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let index = logFactorials.length; index <= n; index += 1)
    logFactorials.push((logFactorials[index - 1] ?? 0) + Math.log(index));
  return logFactorials[n] ?? 0;
}
