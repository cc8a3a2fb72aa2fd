import { interfaceVersion } from '../shared/interface-version.js';

/**
 * MCP revisions this server speaks, newest first. The JSON messages it uses (initialize, ping, tools/list,
 * tools/call) are the same in all of them; streamable HTTP itself dates from 2025-03-26, and 2024-11-05 clients
 * are answered too because their messages are identical.
 */
export const supportedProtocolVersions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const latestProtocolVersion = supportedProtocolVersions[0];

/** MCP lifecycle: echo the client's version when supported, otherwise offer our latest and let the client decide. */
export function negotiateProtocolVersion(requested: string): string {
  return (supportedProtocolVersions as readonly string[]).includes(requested) ? requested : latestProtocolVersion;
}

export function isSupportedProtocolVersion(version: string): boolean {
  return (supportedProtocolVersions as readonly string[]).includes(version);
}

export const serverInfo = {
  name: 'gw-retrieval',
  title: 'gw gateway retrieval tools',
  version: interfaceVersion,
} as const;

export const serverInstructions = [
  'The gw gateway shortens long tool outputs and file reads in this conversation to save context, leaving a marker with a',
  'handle that starts with "ctx_". Call gw_retrieve with that handle (optionally a line range or a grep) when you need the',
  'elided text; call gw_recall with a few words to find elided content when you no longer have the handle.',
].join(' ');
