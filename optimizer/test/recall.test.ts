import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { recallResponseSchema } from '@gw/contracts';
import { auth, chatRequest, testApp, type TestApp } from './support/test-app.js';

let store: TestDb;
let harness: TestApp;
const handles = new Map<string, string>();

function filler(count: number, make: (index: number) => string): string[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

// Tool outputs shaped like the corpus: installs, test runs, logs, listings, history. Long enough to be chunked.
const outputs: Record<string, string> = {
  npmInstall: [
    'npm verb cli /usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js',
    ...filler(60, (index) => `npm http fetch GET 200 https://registry.npmjs.org/dep-${index} 12ms (cache miss)`),
    'npm ERR! code ETARGET',
    'npm ERR! notarget No matching version found for picomatch@^9.4.0.',
    "npm ERR! notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.",
    ...filler(10, (index) => `npm verb exit ${index}`),
  ].join('\n'),
  mochaFailure: [
    '> express@5.0.0 test',
    '> mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/',
    ...filler(70, (index) => `  ✔ res.send(${index}) should respond with status ${200 + (index % 3)}`),
    '  1) res.sendFile() with "maxAge" option should set cache-control max-age:',
    "     AssertionError: expected 'public, max-age=0' to equal 'public, max-age=86400'",
    '      at Context.<anonymous> (test/res.sendFile.js:412:14)',
    '      at process.processImmediate (node:internal/timers:476:21)',
    ...filler(20, (index) => `  ✔ req.accepts(${index})`),
    '  912 passing (3s)',
    '  1 failing',
  ].join('\n'),
  serverLog: [
    ...filler(
      45,
      (index) => `2024-05-01T10:00:${String(index).padStart(2, '0')}Z express:router dispatching GET /users/${index}`,
    ),
    'Error: listen EADDRINUSE: address already in use 127.0.0.1:3000',
    '    at Server.setupListenHandle [as _listen2] (node:net:1872:16)',
    '    at listenInCluster (node:net:1920:12)',
    ...filler(
      10,
      (index) => `2024-05-01T10:01:${String(index).padStart(2, '0')}Z express:router shutting down worker ${index}`,
    ),
  ].join('\n'),
  gitLog: [
    ...filler(
      55,
      (index) =>
        `commit ${String(index).padStart(7, 'a')}f${'0'.repeat(32)}\nAuthor: Dev <dev@example.com>\n\n    docs: tweak readme section ${index}\n`,
    ),
    'commit deadbeefcafe0000000000000000000000000000',
    'Author: Douglas Wilson <doug@somethingdoug.com>',
    '',
    '    Fix handling of maxAge in res.sendFile when passed as a string',
  ].join('\n'),
  eslint: [
    ...filler(50, (index) => `/home/dev/src/micromatch/lib/file${index}.js`),
    '/home/dev/src/micromatch/lib/parse_options.js',
    "  14:7  error  'unusedRegexFlags' is assigned a value but never used  no-unused-vars",
    '  88:3  error  Unexpected console statement  no-console',
    '',
    '✖ 2 problems (2 errors, 0 warnings)',
  ].join('\n'),
};

async function stash(content: string, user: string): Promise<string> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: auth,
    payload: { endpoint: '/v1/chat/completions', request: chatRequest(content), metadata: { user } },
  });
  const match = /ctx_[A-Za-z0-9_-]+/.exec(JSON.stringify(response.json().request));
  if (!match) throw new Error('not stashed');
  return match[0];
}

function recall(query: string, user: string | undefined, k?: number) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/recall',
    headers: auth,
    payload: { query, ...(k === undefined ? {} : { k }), ...(user ? { metadata: { user } } : {}) },
  });
}

beforeAll(async () => {
  store = await createMemoryPgliteDb();
  harness = await testApp({ db: store.db });
  for (const [name, content] of Object.entries(outputs)) handles.set(name, await stash(content, 'ada'));
  handles.set(
    'bobSecret',
    await stash([...filler(40, (index) => `bob private line ${index}`), 'EADDRINUSE in bob session'].join('\n'), 'bob'),
  );
});
afterAll(async () => {
  await store.dispose();
});

describe('POST /v1/recall', () => {
  it.each([
    ['which package version was not found on the registry', 'npmInstall'],
    ['sendFile maxAge cache-control assertion failure', 'mochaFailure'],
    ['port already in use EADDRINUSE', 'serverLog'],
    ['commit that fixed max age handling in send file', 'gitLog'],
    ['unused regex flags lint error in parseOptions', 'eslint'],
  ])('ranks the right stash first for "%s"', async (query, expected) => {
    const response = await recall(query, 'ada');
    expect(response.statusCode).toBe(200);
    const body = recallResponseSchema.parse(response.json());
    expect(body.matches[0]?.handle).toBe(handles.get(expected));
  });

  it('carries the line range of the matching chunk and a preview of the best lines', async () => {
    const [top] = (await recall('EADDRINUSE address already in use', 'ada')).json().matches;
    expect(top.startLine).toBeLessThanOrEqual(46);
    expect(top.endLine).toBeGreaterThanOrEqual(46);
    expect(top.endLine - top.startLine).toBeLessThan(40);
    expect(top.preview).toContain('EADDRINUSE');
    const retrieved = await harness.app.inject({
      method: 'POST',
      url: '/v1/retrieve',
      headers: auth,
      payload: { handle: top.handle, startLine: top.startLine, endLine: top.endLine },
    });
    expect(retrieved.json().content).toContain('Error: listen EADDRINUSE');
  });

  it("searches only the requesting user's own stash", async () => {
    const matches = (await recall('EADDRINUSE', 'ada', 20)).json().matches;
    expect(matches.map((match: { handle: string }) => match.handle)).not.toContain(handles.get('bobSecret'));
    expect((await recall('EADDRINUSE', 'bob')).json().matches.map((match: { handle: string }) => match.handle)).toEqual(
      [handles.get('bobSecret')],
    );
  });

  it('defaults k to 5, caps it at 20 and fails open with empty matches', async () => {
    expect((await recall('npm express commit error lib', 'ada')).json().matches.length).toBeLessThanOrEqual(5);
    expect((await recall('error', 'ada', 50)).statusCode).toBe(200);
    expect((await recall('anything', undefined)).json()).toEqual({ matches: [] });
    expect((await recall('anything', 'nobody')).json()).toEqual({ matches: [] });
    expect((await recall('   ', 'ada')).json()).toEqual({ matches: [] });
    const bare = await testApp();
    expect(
      (
        await bare.app.inject({
          method: 'POST',
          url: '/v1/recall',
          headers: auth,
          payload: { query: 'x', metadata: { user: 'ada' } },
        })
      ).json(),
    ).toEqual({ matches: [] });
  });
});
