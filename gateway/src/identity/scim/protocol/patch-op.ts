import { z } from 'zod';
import { ScimError } from './scim-error.js';

/** RFC 7644 The schema URN a PATCH body must carry. */
export const patchOpSchema = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const maxPatchOperations = 100;
const maxPathLength = 1000;

/** An attribute path (RFC 7644 §3.5.2 Figure 7), lowercased: `name.givenName` → attribute `name`, subAttribute `givenname`. */
export interface AttributePath {
  /** As sent, for error details. */
  text: string;
  attribute: string;
  /** The text between `[` and `]`, as sent; null without one. */
  filter: string | null;
  subAttribute: string | null;
  /** A path into an extension schema (`urn:…:enterprise:2.0:User:department`) rather than the resource's core schema. */
  extension: boolean;
}

/** One attribute change: a path-less add/replace becomes one target per key of its value object. */
export interface PatchTarget {
  op: 'add' | 'remove' | 'replace';
  path: AttributePath;
  /** Undefined only for a remove without a value. */
  value: unknown;
  /** From a path-less operation's value object: clients echo read-only attributes (Okta sends `id`) there. */
  pathless: boolean;
}

// RFC 7643 Attribute names are case-insensitive, so `operations` or `OP` name the same members.
const canonicalKeys = (names: readonly string[]) => (value: unknown) => {
  if (!isObject(value)) return value;
  const entries = Object.entries(value).map(([key, entry]) => [
    names.find((name) => name.toLowerCase() === key.toLowerCase()) ?? key,
    entry,
  ]);
  return Object.fromEntries(entries) as unknown;
};

const operationSchema = z.preprocess(
  canonicalKeys(['op', 'path', 'value']),
  z.object(
    {
      // Entra ID sends `Add`, `Replace` and `Remove`.
      op: z
        .string({ error: 'op must be a string' })
        .transform((op) => op.toLowerCase())
        .pipe(z.enum(['add', 'remove', 'replace'], { error: 'op must be add, remove or replace' })),
      path: z
        .string({ error: 'path must be a string' })
        .max(maxPathLength, `path is longer than ${maxPathLength} characters`)
        .nullish(),
      value: z.unknown().optional(),
    },
    { error: 'each operation must be an object' },
  ),
);

const patchSchema = z.preprocess(
  canonicalKeys(['schemas', 'Operations']),
  z.object(
    {
      schemas: z
        .array(z.string(), { error: `schemas must be an array holding "${patchOpSchema}"` })
        .refine(
          (schemas) => schemas.some((schema) => schema.toLowerCase() === patchOpSchema.toLowerCase()),
          `schemas must hold "${patchOpSchema}"`,
        ),
      Operations: z
        .array(operationSchema, { error: 'Operations must be an array' })
        .min(1, 'Operations must hold at least one operation')
        .max(maxPatchOperations, `Operations may hold at most ${maxPatchOperations} operations`),
    },
    { error: 'the body must be a PatchOp object' },
  ),
);

/**
 * Validates an RFC 7644 §3.5.2 PatchOp body and flattens it into attribute targets in order. `coreSchema` is the
 * resource's core schema URN, which may prefix any path. Structural faults are 400 `invalidSyntax`.
 */
export function parsePatchTargets(body: unknown, coreSchema: string): PatchTarget[] {
  const parsed = patchSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path
      .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
      .join('')
      .replace(/^\./, '');
    throw new ScimError(
      400,
      `The PatchOp body is not valid: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}.`,
      'invalidSyntax',
    );
  }
  return parsed.data.Operations.flatMap((operation, index) => targetsOf(operation, index, coreSchema));
}

function targetsOf(
  operation: { op: PatchTarget['op']; path?: string | null; value?: unknown },
  index: number,
  coreSchema: string,
): PatchTarget[] {
  const { op, value } = operation;
  const path = operation.path ?? undefined;
  const where = `Operations[${index}] (${op})`;
  if (op !== 'remove' && value === undefined) throw new ScimError(400, `${where} has no value.`, 'invalidSyntax');
  if (path !== undefined) return [{ op, path: parseAttributePath(path, coreSchema), value, pathless: false }];
  // RFC 7644 A remove without a path has no target.
  if (op === 'remove') throw new ScimError(400, `${where} has no path.`, 'noTarget');
  // RFC 7644 Without a path the value is a set of attributes of the resource itself.
  if (!isObject(value))
    throw new ScimError(400, `${where} has no path, so its value must be an object of attributes.`, 'invalidValue');
  return Object.entries(value).map(([key, entry]) => ({
    op,
    path: parseAttributePath(key, coreSchema),
    value: entry,
    pathless: true,
  }));
}

const corePathPattern = /^([a-z][\w$-]*)(?:\[(.*)\])?(?:\.([a-z][\w$-]*))?$/i;

/** Parses one attribute path relative to `coreSchema`; a malformed path is 400 `invalidPath`. */
export function parseAttributePath(text: string, coreSchema: string): AttributePath {
  const trimmed = text.trim();
  const corePrefix = `${coreSchema.toLowerCase()}:`;
  const lowered = trimmed.toLowerCase();
  if (lowered.startsWith('urn:') && !lowered.startsWith(corePrefix)) {
    if (lowered === coreSchema.toLowerCase())
      throw new ScimError(400, `The path "${text}" names a schema, not an attribute.`, 'invalidPath');
    return { text, attribute: lowered, filter: null, subAttribute: null, extension: true };
  }
  const relative = lowered.startsWith(corePrefix) ? trimmed.slice(corePrefix.length) : trimmed;
  const [, attribute, filter, subAttribute] = corePathPattern.exec(relative) ?? [];
  if (attribute === undefined)
    throw new ScimError(400, `The path "${text}" is not a valid attribute path.`, 'invalidPath');
  return {
    text,
    attribute: attribute.toLowerCase(),
    filter: filter ?? null,
    subAttribute: subAttribute?.toLowerCase() ?? null,
    extension: false,
  };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
