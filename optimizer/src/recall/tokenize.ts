// Words too common in prose to tell stashes apart; identifiers are never dropped (they carry the meaning).
const stopWords = new Set(
  'a an and are as at be but by for from has have how i if in into is it its of on or that the this to was were what when where which who why will with'.split(
    ' ',
  ),
);

// An identifier or path: `res.sendFile`, `lib/router/index.js`, `snake_case`, `kebab-case`, `$scope`.
const identifierRun = /[\p{L}\p{N}_$]+(?:[./\\:-][\p{L}\p{N}_$]+)*/gu;
const camelBoundary =
  /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const separators = /[./\\:_$-]+/;

/**
 * Subword tokens with identifier splitting: each identifier or path yields itself and its parts split
 * on separators and camelCase and letter–digit boundaries, lower-cased, with a light suffix stem, so
 * `parseHTTPHeaders` matches a query for "http header parse". Query and documents go through the same function.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(identifierRun)) {
    const run = match[0];
    const whole = run.toLowerCase();
    if (whole.length <= 80 && !stopWords.has(whole)) tokens.push(whole);
    const parts = run.split(separators).flatMap((piece) => piece.split(camelBoundary));
    if (parts.length === 1 && parts[0] === run) {
      const stem = stemOf(whole);
      if (stem !== whole) tokens.push(stem);
      continue;
    }
    for (const part of parts) addPart(tokens, part.toLowerCase());
  }
  return tokens;
}

function addPart(tokens: string[], part: string): void {
  if (part.length < 2 && !/\p{N}/u.test(part)) return;
  if (stopWords.has(part)) return;
  tokens.push(part);
  const stem = stemOf(part);
  if (stem !== part) tokens.push(stem);
}

/** A deliberately light stemmer: enough to meet "failing"/"failed"/"fails" at "fail" without a dictionary. */
export function stemOf(word: string): string {
  if (word.length <= 4 || /\p{N}/u.test(word)) return word;
  for (const suffix of [
    'ations',
    'ation',
    'ings',
    'ing',
    'ures',
    'ure',
    'ions',
    'ion',
    'ies',
    'ied',
    'ed',
    'ly',
    's',
  ]) {
    // "class", "status", "analysis": a final s after s, u or i is not a plural.
    if (suffix === 's' && /[siu]s$/.test(word)) continue;
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const stem = word.slice(0, -suffix.length);
      return suffix === 'ies' || suffix === 'ied' ? `${stem}y` : stem;
    }
  }
  return word;
}
