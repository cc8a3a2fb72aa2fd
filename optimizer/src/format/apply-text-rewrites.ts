import type { JsonObject } from './json-value.js';
import type { JsonPath } from './request-view.js';

export interface TextRewrite {
  readonly path: JsonPath;
  readonly text: string;
}

type Container = JsonObject | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function shallowCopy(value: Container): Container {
  // Spreading keeps key order, and untouched members stay the very same values: numbers, big integers written as
  // numbers and unknown provider fields survive byte for byte.
  return Array.isArray(value) ? value.slice() : { ...value };
}

function readMember(container: Container, segment: string | number): unknown {
  return Array.isArray(container) ? container[segment as number] : container[segment as string];
}

function writeMember(container: Container, segment: string | number, value: unknown): void {
  if (Array.isArray(container)) container[segment as number] = value;
  else container[segment as string] = value;
}

/**
 * The request with the given strings replaced, copying only the containers on the way to each rewritten string.
 * The input is never mutated (the gateway may forward the original on failure). A path that no longer leads to a
 * string is ignored rather than creating structure.
 */
export function applyTextRewrites(request: JsonObject, rewrites: readonly TextRewrite[]): JsonObject {
  if (rewrites.length === 0) return request;
  const copies = new Map<Container, Container>();
  const copyOf = (original: Container): Container => {
    let copy = copies.get(original);
    if (!copy) {
      copy = shallowCopy(original);
      copies.set(original, copy);
    }
    return copy;
  };
  const root = copyOf(request) as JsonObject;
  for (const rewrite of rewrites) {
    let original: unknown = request;
    let copy: Container = root;
    const last = rewrite.path.length - 1;
    let valid = true;
    for (let depth = 0; depth < last && valid; depth += 1) {
      const segment = rewrite.path[depth];
      const next = isContainer(original) ? readMember(original, segment) : undefined;
      if (!isContainer(next)) {
        valid = false;
        break;
      }
      const nextCopy = copyOf(next);
      writeMember(copy, segment, nextCopy);
      original = next;
      copy = nextCopy;
    }
    const leaf = rewrite.path[last];
    if (!valid || leaf === undefined || !isContainer(original) || typeof readMember(original, leaf) !== 'string')
      continue;
    writeMember(copy, leaf, rewrite.text);
  }
  return root;
}
