/**
 * The project's own API reference: an OpenAPI 3.1 document rendered as Markdown (`docs/api/<service>.md`), so code
 * and docs can point a reader at a file in the repository for any route's contract. Each service has a test that
 * renders its live document and fails when the committed reference drifts; `GW_UPDATE_API_REFERENCE=1` rewrites it.
 */
interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  responses?: Record<string, { description?: string }>;
  'x-required-capability'?: string | null;
  'x-required-scope'?: string | null;
  'x-scope'?: string;
}

export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

const methods = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;

/** The anchor a reader links to: `docs/api/gateway.md#post-v1chatcompletions` style, stable across renders. */
export function referenceAnchor(method: string, path: string): string {
  return `${method} ${path}`
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function operationSection(method: string, path: string, operation: OpenApiOperation): string[] {
  const lines = [`### ${method.toUpperCase()} ${path}`, ''];
  const summary = oneLine(operation.summary);
  if (summary) lines.push(summary, '');
  const description = oneLine(operation.description);
  if (description && description !== summary) lines.push(description, '');
  const facts: string[] = [];
  if (operation.deprecated) facts.push('deprecated');
  if (operation['x-required-scope']) facts.push(`scope \`${operation['x-required-scope']}\``);
  if (operation['x-required-capability']) facts.push(`capability \`${operation['x-required-capability']}\``);
  if (operation['x-scope']) facts.push(`${operation['x-scope']}-scoped`);
  if (facts.length > 0) lines.push(`Access: ${facts.join(', ')}.`, '');
  const responses = Object.entries(operation.responses ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (responses.length > 0) {
    lines.push('| status | meaning |', '|---|---|');
    for (const [status, response] of responses)
      lines.push(`| ${status} | ${oneLine(response.description).replace(/\|/g, '\\|') || ' '} |`);
    lines.push('');
  }
  return lines;
}

/** Render a document: one section per tag, one entry per operation, sorted so the output is stable. */
export function renderApiReference(document: OpenApiDocument, generatedBy: string): string {
  const byTag = new Map<string, string[][]>();
  for (const [path, item] of Object.entries(document.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      const entries = byTag.get(tag) ?? [];
      entries.push(operationSection(method, path, operation));
      byTag.set(tag, entries);
    }
  }
  const title = document.info?.title ?? 'API';
  const out = [
    `# ${title} API reference`,
    '',
    `Generated from the service's OpenAPI ${document.info?.version ? `document (interface version ${document.info.version})` : 'document'} by ${generatedBy}; do not edit by hand.`,
    '',
  ];
  for (const tag of [...byTag.keys()].sort()) {
    out.push(`## ${tag}`, '');
    for (const entry of byTag.get(tag) ?? []) out.push(...entry);
  }
  return `${out.join('\n').trimEnd()}\n`;
}
