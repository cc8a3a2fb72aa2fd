import { describe, expect, it } from 'vitest';
import { DeploymentThrottle } from './deployment-throttle.js';

describe('DeploymentThrottle', () => {
  it('allows the first refresh of a deployment', () => {
    expect(new DeploymentThrottle(60_000).check('dep_a', 0)).toEqual({ allowed: true });
  });

  it.each([
    [1, 60],
    [59_000, 1],
    [59_001, 1],
    [30_500, 30],
  ])('refuses a refresh %i ms after the last answered one, retrying after %i s', (elapsedMs, seconds) => {
    const throttle = new DeploymentThrottle(60_000);
    throttle.answered('dep_a', 1_000);
    expect(throttle.check('dep_a', 1_000 + elapsedMs)).toEqual({ allowed: false, retryAfterSeconds: seconds });
  });

  it('allows a refresh once the whole interval has passed', () => {
    const throttle = new DeploymentThrottle(60_000);
    throttle.answered('dep_a', 1_000);
    expect(throttle.check('dep_a', 61_000)).toEqual({ allowed: true });
  });

  it('says at least one second even when less than one remains', () => {
    const throttle = new DeploymentThrottle(500);
    throttle.answered('dep_a', 0);
    expect(throttle.check('dep_a', 100)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('keeps each deployment on its own window', () => {
    const throttle = new DeploymentThrottle(60_000);
    throttle.answered('dep_a', 0);
    expect(throttle.check('dep_b', 10)).toEqual({ allowed: true });
  });
});
