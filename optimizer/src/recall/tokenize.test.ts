import { describe, expect, it } from 'vitest';
import { chunkLines } from './chunk.js';
import { tokenize } from './tokenize.js';
import { Bm25Ranker } from './bm25-ranker.js';

describe('tokenize', () => {
  it('splits identifiers on camelCase, snake_case, kebab-case, digits and paths, keeping the whole', () => {
    const tokens = tokenize('parseHTTPHeaders max_age_ms lib/router/index.js v2beta');
    expect(tokens).toEqual(
      expect.arrayContaining([
        'parsehttpheaders',
        'parse',
        'http',
        'headers',
        'header',
        'max_age_ms',
        'max',
        'age',
        'ms',
        'lib/router/index.js',
        'router',
        'index',
        'js',
        'v2beta',
        'beta',
      ]),
    );
    expect(tokenize('address status')).toEqual(['address', 'status']);
  });

  it('meets inflections at a light stem and drops prose stop words', () => {
    expect(tokenize('failing failed fails')).toEqual(expect.arrayContaining(['fail']));
    expect(tokenize('the of and')).toEqual([]);
  });
});

describe('Bm25Ranker', () => {
  it('prefers the document with the rarer, denser query terms and breaks ties by id', () => {
    const ranker = new Bm25Ranker();
    const ranked = ranker.rank(
      'EADDRINUSE port',
      [
        { id: 'b', text: 'server started on port 3000' },
        { id: 'a', text: 'Error: listen EADDRINUSE: address already in use, port 3000' },
        { id: 'd', text: 'port 8080 open' },
        { id: 'c', text: 'nothing relevant here' },
      ],
      5,
    );
    expect(ranked[0]?.id).toBe('a');
    expect(ranked.map((document) => document.id).sort()).toEqual(['a', 'b', 'd']);
    expect(
      ranker
        .rank(
          'same',
          [
            { id: 'y', text: 'same' },
            { id: 'x', text: 'same' },
          ],
          2,
        )
        .map((document) => document.id),
    ).toEqual(['x', 'y']);
  });
});

describe('chunkLines', () => {
  it('cuts by lines and by characters and numbers chunks from 1', () => {
    const content = Array.from({ length: 90 }, (_, index) => `l${index + 1}`).join('\n');
    expect(chunkLines(content).map((chunk) => [chunk.startLine, chunk.endLine])).toEqual([
      [1, 40],
      [41, 80],
      [81, 90],
    ]);
    expect(chunkLines(`${'x'.repeat(5000)}\nshort`).map((chunk) => [chunk.startLine, chunk.endLine])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });
});
