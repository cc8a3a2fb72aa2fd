import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from './config.js';

const schema = z.object({ GW_PORT: env.port(8787), GW_FLAG: env.boolean(false), GW_KEY: env.hexKey(32).optional() });

describe('loadConfig', () => {
  it('applies defaults and coerces values', () => {
    expect(loadConfig(schema, {})).toEqual({ GW_PORT: 8787, GW_FLAG: false });
    expect(loadConfig(schema, { GW_PORT: '9000', GW_FLAG: 'true' })).toMatchObject({ GW_PORT: 9000, GW_FLAG: true });
  });

  it('names every bad variable and its rule', () => {
    try {
      loadConfig(schema, { GW_PORT: '99999', GW_FLAG: 'maybe', GW_KEY: 'xyz' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('GW_PORT: must be between 0 and 65535');
      expect(message).toContain('GW_FLAG: must be true or false');
      expect(message).toContain('GW_KEY: must be 64 hexadecimal characters');
    }
  });

  it('freezes the result', () => {
    expect(Object.isFrozen(loadConfig(schema, {}))).toBe(true);
  });
});
