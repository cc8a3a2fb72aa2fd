import { describe, expect, it } from 'vitest';
import { carriesGatewayConnector, retrievalDiscoveryOf } from './retrieval-discovery.js';

const origins = ['https://gw.example.com/base', 'http://127.0.0.1:8787'];

describe('carriesGatewayConnector', () => {
  it('finds a Messages mcp_servers entry or a Responses mcp tool aimed at the gateway’s own /mcp', () => {
    expect(
      carriesGatewayConnector(
        { mcp_servers: [{ type: 'url', url: 'https://GW.example.com/base/mcp/', name: 'gw' }] },
        origins,
      ),
    ).toBe(true);
    expect(
      carriesGatewayConnector(
        { tools: [{ type: 'mcp', server_label: 'gw', server_url: 'http://127.0.0.1:8787/mcp' }] },
        origins,
      ),
    ).toBe(true);
  });

  it('does not count another server, the organization hub, a function tool named like one, or a malformed URL', () => {
    expect(
      carriesGatewayConnector({ mcp_servers: [{ type: 'url', url: 'https://tools.example.org/mcp' }] }, origins),
    ).toBe(false);
    expect(
      carriesGatewayConnector({ mcp_servers: [{ type: 'url', url: 'https://gw.example.com/base/mcp/org' }] }, origins),
    ).toBe(false);
    expect(
      carriesGatewayConnector(
        { tools: [{ type: 'function', name: 'mcp', server_url: 'http://127.0.0.1:8787/mcp' }] },
        origins,
      ),
    ).toBe(false);
    expect(
      carriesGatewayConnector({ tools: [{ type: 'mcp', server_url: 'not a url' }], mcp_servers: 'nope' }, origins),
    ).toBe(false);
    expect(carriesGatewayConnector({}, [])).toBe(false);
  });
});

describe('retrievalDiscoveryOf', () => {
  it('puts a connector first, then the lease as live, lapsed or none', () => {
    expect(retrievalDiscoveryOf({ connector: true, lease: 'none' })).toBe('connector');
    expect(retrievalDiscoveryOf({ connector: true, lease: 'lapsed' })).toBe('connector');
    expect(retrievalDiscoveryOf({ connector: false, lease: 'live' })).toBe('lease_live');
    expect(retrievalDiscoveryOf({ connector: false, lease: 'lapsed' })).toBe('lease_lapsed');
    expect(retrievalDiscoveryOf({ connector: false, lease: 'none' })).toBe('none');
  });
});
