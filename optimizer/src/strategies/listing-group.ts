import { isRecord } from '../format/json-value.js';
import { countTokens } from '../tokens/count-tokens.js';
import { outlinePrefix } from './file-outline.js';
import { elisionHint, formatCount, plural } from './retrieve-hint.js';
import { handlePlaceholder, type DegradableRecipe, type SpanStrategy } from './types.js';

export type ListingGroupRecipe = DegradableRecipe & { readonly r: 1 };

/** A path as `find`, `git ls-files` or `fd` print it: no whitespace, at least one separator or a plain name. */
const pathLine = /^\.{0,2}\/?[^\s/]\S*\/\S*[^\s/]$|^\.?\/?[\w@.+-]+$/;
/** Directories of fetched or generated files: a listing shows how many, not which. */
const vendorSegment =
  /^(?:node_modules|vendor|\.git|__pycache__|\.venv|venv|site-packages|target|dist|build|\.next|coverage)$/;
const minLines = 80;
const minTokens = 1_000;
/** Collapsing must save at least this share, or the listing is left to elision. */
const minSavedShare = 0.4;

/** The vendored group a path belongs to (`./node_modules/@scope/pkg/`), or null for a project path. */
function vendorGroup(path: string): string | null {
  const segments = path.split('/');
  const at = segments.findIndex((segment) => vendorSegment.test(segment));
  if (at === -1 || at === segments.length - 1) return null;
  // Stop at the package: `node_modules/<pkg>` or `node_modules/@scope/<pkg>`, nested node_modules included.
  let end = at + 1;
  if (segments[end]?.startsWith('@') === true && end + 1 < segments.length - 1) end += 1;
  return `${segments.slice(0, end + 1).join('/')}/`;
}

interface Grouped {
  readonly lines: string[];
  readonly collapsedPaths: number;
  readonly groups: number;
}

/** The first lines decide whether an output can be a listing at all, before all of it is split and tested. */
function looksLikeListing(text: string): boolean {
  const head = text
    .slice(0, 4_000)
    .split('\n')
    .slice(0, 20)
    .filter((line) => line !== '');
  return head.length > 0 && head.filter((line) => pathLine.test(line)).length >= head.length * 0.8;
}

function group(text: string): Grouped | null {
  if (!looksLikeListing(text)) return null;
  const lines = text.split('\n');
  const content = lines.filter((line) => line !== '');
  if (content.length < minLines) return null;
  const paths = content.filter((line) => pathLine.test(line));
  if (paths.length < content.length * 0.9) return null;
  const counts = new Map<string, number>();
  for (const line of lines) {
    const key = pathLine.test(line) ? vendorGroup(line) : null;
    if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  const out: string[] = [];
  const shown = new Set<string>();
  let collapsedPaths = 0;
  for (const line of lines) {
    const key = pathLine.test(line) ? vendorGroup(line) : null;
    // Project paths, and anything that is not a path (a `Permission denied` line), stay verbatim and in place.
    if (key === null) {
      out.push(line);
      continue;
    }
    collapsedPaths += 1;
    if (shown.has(key)) continue;
    shown.add(key);
    out.push(`${key} … ${plural(counts.get(key) ?? 0, 'file')}`);
  }
  return { lines: out, collapsedPaths, groups: counts.size };
}

function render(text: string, recipe: ListingGroupRecipe): string | null {
  const grouped = group(text);
  if (grouped === null) return null;
  const what = `a ${formatCount(text.split('\n').filter((line) => line !== '').length)}-line listing: ${plural(grouped.collapsedPaths, 'path')} under ${formatCount(grouped.groups)} vendored or generated directories (node_modules/, dist/, …) shown as one line each with a count; every other path kept`;
  const hint = elisionHint(what, recipe.handle, 'the full list');
  return [`${outlinePrefix}${hint.slice('[... '.length)}`, ...grouped.lines].join('\n');
}

/**
 * A long path listing (`find`, `git ls-files`) grouped by directory: the project's own paths verbatim and in order,
 * each vendored or generated package directory (`node_modules/<pkg>/`, `dist/`, `.git/`) collapsed to one line
 * with its file count, behind a handle to the full list. What an agent looks for in a listing is the project's
 * layout; the dependency tree's files are one `gw_retrieve` grep away.
 */
export const listingGroup: SpanStrategy<ListingGroupRecipe> = {
  kind: 'listing_group',
  degradable: true,
  minChars: minTokens * 2,
  plan(text, context) {
    const recipe: ListingGroupRecipe = { r: 1, handle: context.mode === 'handle' ? handlePlaceholder : null };
    const grouped = render(text, recipe);
    if (grouped === null || grouped.length > text.length * (1 - minSavedShare) || countTokens(text) < minTokens)
      return null;
    return { recipe, text: grouped };
  },
  render(text, recipe) {
    return render(text, recipe) ?? text;
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    const { handle } = value;
    if (handle !== null && typeof handle !== 'string') return null;
    return { r: 1, handle };
  },
};
