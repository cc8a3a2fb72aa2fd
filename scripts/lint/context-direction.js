// Lint rule: the gateway's bounded contexts import only downwards. `gateway/src` is grouped by context (see
// gateway/README.md); a context may import the ones listed after it and never one listed before it, so the folders
// form no knot. Files at the top of `gateway/src` are the composition root and may import anything; of them, only the
// service-wide leaves (the configuration schema and the error catalog) may be imported by a context.
import { dirname, relative, resolve, sep } from 'node:path';

/** Highest first. Each context's README says what it owns and repeats what it may import. */
export const gatewayContexts = [
  'service',
  'developer',
  'mcp',
  'inference',
  'optimization',
  'billing',
  'chain',
  'governance',
  'routing',
  'metering',
  'fleet',
  'policies',
  'identity',
  'providers',
  'admin',
  'shared',
];

const serviceWideLeaves = new Set(['config', 'errors']);

const gatewaySource = resolve(import.meta.dirname, '../../gateway/src');

function contextOf(path) {
  const inside = relative(gatewaySource, path);
  if (inside.startsWith('..')) return null;
  const parts = inside.split(sep);
  if (parts.length > 1) return parts[0];
  return serviceWideLeaves.has(parts[0].replace(/\.(js|ts)$/, '')) ? 'shared' : 'root';
}

export const contextDirection = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      upward: "The '{{from}}' context may not import '{{to}}': contexts import only downwards (gateway/README.md).",
    },
  },
  create(context) {
    const from = contextOf(context.filename);
    if (from === null || from === 'root' || context.filename.endsWith('.test.ts')) return {};
    const rank = gatewayContexts.indexOf(from);
    function check(node) {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = contextOf(resolve(dirname(context.filename), specifier));
      if (to === null || to === from) return;
      const targetRank = to === 'root' ? -1 : gatewayContexts.indexOf(to);
      if (rank === -1 || targetRank < rank)
        context.report({ node: node.source, messageId: 'upward', data: { from, to } });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
