import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

describe('gateway configuration', () => {
  it('takes trusted proxies as addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else', () => {
    expect(readConfig({ GW_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' }).GW_TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(readConfig({ GW_TRUSTED_PROXIES: '::1,fd00::/8' }).GW_TRUSTED_PROXIES).toEqual(['::1', 'fd00::/8']);
    expect(readConfig({}).GW_TRUSTED_PROXIES).toBeUndefined();
    for (const bad of ['10.0.0.0/33', 'ingress.internal', '10.0.0.1/8/2', ',']) expect(() => readConfig({ GW_TRUSTED_PROXIES: bad }), bad).toThrow(/GW_TRUSTED_PROXIES/);
  });
});
