import { describe, expect, it } from 'vitest';
import { bound, goldenHandle } from './__fixtures__/bind.js';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { elideToolOutput } from './elide-tool-output.js';
import { listingGroup } from './listing-group.js';

const findListing = fixture('find-listing.txt');

describe('listing_group', () => {
  it('keeps every project path of a micromatch `find` and collapses node_modules per package with counts', () => {
    const planned = listingGroup.plan(findListing, spanContext(findListing));
    expect(planned).not.toBeNull();
    const { recipe, text } = bound(planned!);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^\\[\\.\\.\\. outline of a 1,034-line listing: .*call gw_retrieve with handle "${goldenHandle}"`),
    );
    for (const path of findListing.split('\n').filter((line) => line !== '' && !line.includes('/node_modules/')))
      expect(lines).toContain(path);
    expect(text).toContain('./test/api.capture.js');
    expect(text).toMatch(/^\.\/node_modules\/picomatch\/ … \d+ files$/m);
    expect(text).not.toContain('./node_modules/picomatch/lib/parse.js');
    expect(text.length).toBeLessThan(findListing.length / 4);
    expectGolden('find-listing.listing_group.txt', text);
    expect(listingGroup.render(findListing, recipe)).toBe(text);
    expect(elideToolOutput.plan(text, spanContext(text))).toBeNull();
  });

  it('keeps a line that is not a path (an error) verbatim and in place', () => {
    const denied = 'find: ‘./node_modules/.cache’: Permission denied';
    const input = findListing.replace('./README.md\n', `./README.md\n${denied}\n`);
    const text = listingGroup.plan(input, spanContext(input))?.text ?? '';
    expect(text).toContain(`./README.md\n${denied}\n`);
  });

  it('leaves alone what is not a listing, and a listing with nothing vendored', () => {
    const log = fixture('tap-failures.txt');
    expect(listingGroup.plan(log, spanContext(log))).toBeNull();
    const project = findListing
      .split('\n')
      .filter((line) => !line.includes('node_modules'))
      .join('\n')
      .repeat(20);
    expect(listingGroup.plan(project, spanContext(project))).toBeNull();
  });
});
