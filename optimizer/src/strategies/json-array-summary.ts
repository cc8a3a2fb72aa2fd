import { isRecord } from '../format/json-value.js';
import { locateJsonDocument, rawStringBody, type JsonNode } from './json/json-lexer.js';
import { formatCount } from './retrieve-hint.js';
import { handlePlaceholder, type DegradableRecipe, type SpanStrategy } from './types.js';

export interface JsonArraySummaryRecipe extends DegradableRecipe {
  readonly r: 1;
  /** Items kept at the start and the end of each summarised collection. */
  readonly head: number;
  readonly tail: number;
  /** A collection qualifies with at least this many items and characters. */
  readonly minItems: number;
  readonly minChars: number;
}

const defaults = { head: 3, tail: 2, minItems: 12, minChars: 1_200 } as const;
const minSavedShare = 0.25;
const maxSchemaKeys = 8;
const schemaSampleItems = 50;

function isHomogeneous(nodes: readonly JsonNode[]): boolean {
  const first = nodes[0];
  return first !== undefined && nodes.every((node) => node.kind === first.kind);
}

function qualifies(node: JsonNode, recipe: JsonArraySummaryRecipe): boolean {
  if (node.kind !== 'array' && node.kind !== 'object') return false;
  const count = node.children.length;
  return (
    count >= Math.max(recipe.minItems, recipe.head + recipe.tail + 2) &&
    node.end - node.start >= recipe.minChars &&
    isHomogeneous(node.children)
  );
}

/** `objects with keys name (string), version (string), …`: the schema of the items, never their values. */
function describeItems(text: string, items: readonly JsonNode[]): string {
  const first = items[0];
  if (!first) return 'values';
  if (first.kind !== 'object') return `each ${first.kind === 'literal' ? 'a literal' : `a ${first.kind}`}`;
  const keys = new Map<string, string>();
  for (const item of items.slice(0, schemaSampleItems)) {
    item.keys.forEach((key, index) => {
      const name = rawStringBody(text, key);
      // Escaped or long names would need re-escaping inside the marker string; the schema lists plain names only.
      if (keys.size < maxSchemaKeys && !keys.has(name) && !name.includes('\\') && name.length <= 40)
        keys.set(name, item.children[index]?.kind ?? 'value');
    });
  }
  const listed = [...keys].map(([name, kind]) => `${name}: ${kind}`).join(', ');
  return `each an object {${listed}${keys.size >= maxSchemaKeys ? ', …' : ''}}`;
}

function marker(text: string, node: JsonNode, recipe: JsonArraySummaryRecipe): string {
  const total = node.children.length;
  const elided = total - recipe.head - recipe.tail;
  const noun = node.kind === 'array' ? 'items' : 'entries';
  const what = `[gw] ${formatCount(elided)} of ${formatCount(total)} ${noun} elided (${describeItems(text, node.children)})`;
  // Single quotes around the handle: the marker is a JSON string and must not need escapes.
  const tail =
    recipe.handle === null
      ? '; trimmed, not retrievable'
      : `; call gw_retrieve with handle '${recipe.handle}' (optionally grep/startLine/endLine) for the full original`;
  return `"${what}${tail}"`;
}

class SummaryRenderer {
  constructor(
    private readonly text: string,
    private readonly recipe: JsonArraySummaryRecipe,
  ) {}

  /** Member `index` with its key (objects) or alone (arrays), nested collections rendered recursively. */
  private member(node: JsonNode, index: number): string {
    const child = node.children[index];
    const key = node.keys[index];
    const lead = key ? this.text.slice(key.start, child.start) : '';
    return lead + this.render(child);
  }

  private memberStart(node: JsonNode, index: number): number {
    return (node.keys[index] ?? node.children[index]).start;
  }

  private between(node: JsonNode, index: number): string {
    return this.text.slice(node.children[index].end, this.memberStart(node, index + 1));
  }

  private summarised(node: JsonNode): string {
    const { head, tail } = this.recipe;
    const count = node.children.length;
    const parts = [this.text.slice(node.start, this.memberStart(node, 0))];
    for (let index = 0; index < head; index += 1) parts.push(this.member(node, index), this.between(node, index));
    const firstKey = node.keys[0];
    const keyLead = firstKey ? `"[gw elided]"${this.text.slice(firstKey.end, node.children[0].start)}` : '';
    parts.push(keyLead + marker(this.text, node, this.recipe), this.between(node, count - tail - 1));
    for (let index = count - tail; index < count; index += 1) {
      parts.push(this.member(node, index));
      if (index < count - 1) parts.push(this.between(node, index));
    }
    parts.push(this.text.slice(node.children[count - 1].end, node.end));
    return parts.join('');
  }

  render(node: JsonNode): string {
    if (node.children.length === 0) return this.text.slice(node.start, node.end);
    if (qualifies(node, this.recipe)) return this.summarised(node);
    const parts = [this.text.slice(node.start, this.memberStart(node, 0))];
    node.children.forEach((_child, index) => {
      parts.push(this.member(node, index));
      parts.push(index < node.children.length - 1 ? this.between(node, index) : this.text.slice(_child.end, node.end));
    });
    return parts.join('');
  }

  summarisedCount(node: JsonNode): number {
    if (qualifies(node, this.recipe)) return 1;
    return node.children.reduce((sum, child) => sum + this.summarisedCount(child), 0);
  }
}

function summarise(text: string, recipe: JsonArraySummaryRecipe): string | null {
  const document = locateJsonDocument(text);
  if (!document) return null;
  const renderer = new SummaryRenderer(text, recipe);
  if (renderer.summarisedCount(document.root) === 0) return null;
  return text.slice(0, document.root.start) + renderer.render(document.root) + text.slice(document.root.end);
}

/**
 * Large homogeneous JSON collections (arrays, and objects used as maps such as npm's version-to-date `time`) keep
 * their first and last items and become a marker naming the count, the item schema and the handle. The rest of the
 * document is copied byte for byte; nothing is parsed into values.
 */
export const jsonArraySummary: SpanStrategy<JsonArraySummaryRecipe> = {
  kind: 'json_array_summary',
  degradable: true,
  minChars: defaults.minChars,
  plan(text, context) {
    const recipe: JsonArraySummaryRecipe = {
      r: 1,
      handle: context.mode === 'handle' ? handlePlaceholder : null,
      ...defaults,
    };
    const summary = summarise(text, recipe);
    if (summary === null || text.length - summary.length < text.length * minSavedShare) return null;
    return { recipe, text: summary };
  },
  render(text, recipe) {
    return summarise(text, recipe) ?? text;
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    const { handle, head, tail, minItems, minChars } = value;
    if (handle !== null && typeof handle !== 'string') return null;
    const counts = [head, tail, minItems, minChars];
    if (!counts.every((count) => typeof count === 'number' && Number.isInteger(count) && count >= 0)) return null;
    return {
      r: 1,
      handle,
      head: head as number,
      tail: tail as number,
      minItems: minItems as number,
      minChars: minChars as number,
    };
  },
};
