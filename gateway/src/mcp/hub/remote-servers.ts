/** A managed MCP server the hub can reach: one with an http(s) URL rather than a device-side command. */
export interface RemoteServer {
  name: string;
  url: string;
}

/**
 * The desktop policy's `managedMcpServers` (free-form) as the hub sees them: entries with a `url` and a
 * remote `type` (or none) are remote; entries with a `command` run on the device and are only counted.
 */
export function remoteServersOf(managed: Record<string, unknown> | undefined): {
  remote: RemoteServer[];
  local: number;
} {
  const remote: RemoteServer[] = [];
  let local = 0;
  for (const [name, entry] of Object.entries(managed ?? {})) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { url, type, command } = entry as { url?: unknown; type?: unknown; command?: unknown };
    if (
      typeof url === 'string' &&
      /^https?:\/\//i.test(url) &&
      (type === undefined || type === 'http' || type === 'streamable-http' || type === 'url')
    )
      remote.push({ name, url });
    else if (typeof command === 'string') local += 1;
  }
  return { remote, local };
}
