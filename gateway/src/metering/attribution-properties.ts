import type { FastifyRequest } from 'fastify';

const propertyHeader = /^x-gw-property-([A-Za-z0-9][A-Za-z0-9_.-]{0,63})$/;

/** `x-gw-property-<name>` custom dimensions, bounded in count and length; never content. */
export function propertiesFrom(headers: FastifyRequest['headers']): Record<string, string> | undefined {
  let properties: Record<string, string> | undefined;
  // A key loop, not `Object.entries`: this runs on every call, and almost none carries a property header.
  for (const name in headers) {
    if (!name.startsWith('x-gw-property-')) continue;
    const value = headers[name];
    if (typeof value !== 'string') continue;
    const match = propertyHeader.exec(name);
    if (!match?.[1]) continue;
    properties ??= {};
    if (Object.keys(properties).length >= 16) break;
    properties[match[1]] = value.slice(0, 128);
  }
  return properties;
}
