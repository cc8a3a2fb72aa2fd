import { parse } from 'plist';
import { describe, expect, it } from 'vitest';
import { buildDesktopProfile, nameBasedUuid } from './desktop-profile.js';

describe('the desktop trust profile builder', () => {
  it('derives RFC 9562 name-based (version 5) UUIDs', () => {
    // The RFC's own example: "www.example.com" in the DNS namespace.
    expect(nameBasedUuid('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ED6657D-E927-568B-95E1-2665A8AEA6A2',
    );
    expect(nameBasedUuid('a')).toBe(nameBasedUuid('a'));
    expect(nameBasedUuid('a')).not.toBe(nameBasedUuid('b'));
  });

  it('escapes what it pins, so a base URL cannot inject plist elements', () => {
    const xml = buildDesktopProfile({ deployment: 'dep', baseUrl: 'https://gw.example.com/a&b<c>', revision: 3 });
    const profile = parse(xml) as { PayloadContent: Array<{ gatewayBaseUrl: string; bootstrapUrl: string }> };
    expect(profile.PayloadContent[0]?.gatewayBaseUrl).toBe('https://gw.example.com/a&b<c>');
    expect(profile.PayloadContent[0]?.bootstrapUrl).toBe(
      'https://gw.example.com/a&b<c>/connect/claude-desktop/bootstrap?os=macos',
    );
  });
});
