import { describe, expect, it } from 'vitest';
import { acceptsContentType, headBytes, magicProblem } from './installer-kinds.js';

const bytes = (hex: string) => Buffer.from(hex, 'hex');
const text = (value: string) => Buffer.from(value, 'latin1');

describe('installer kinds', () => {
  it.each([
    ['pkg', bytes('78617221001c0001'), null],
    ['msi', bytes('d0cf11e0a1b11ae100000000'), null],
    ['deb', text('!<arch>\ndebian-binary   1342943816'), null],
    ['deb', text('!<arch>\ndebian-binary/  1342943816'), null],
    ['rpm', bytes('edabeedb03000000'), null],
    ['pkg', bytes('504b0304'), 'xar'],
    ['msi', bytes('d0cf11e0'), 'OLE'],
    ['deb', text('!<arch>\nlibfoo.o/       '), 'debian-binary'],
    ['rpm', bytes('7f454c46'), 'EDABEEDB'],
    ['rpm', Buffer.alloc(0), 'EDABEEDB'],
  ] as const)('%s starting %s', (kind, head, problem) => {
    const found = magicProblem(kind, head);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });

  it('reads enough leading bytes for the longest check', () => {
    expect(headBytes).toBe(21);
  });

  it.each([
    ['pkg', 'application/octet-stream', true],
    ['pkg', 'Application/X-Xar; charset=binary', true],
    ['msi', 'application/x-msi', true],
    ['deb', 'application/vnd.debian.binary-package', true],
    ['rpm', 'application/x-rpm', true],
    ['rpm', 'application/x-msi', false],
    ['deb', 'application/json', false],
    ['pkg', undefined, false],
  ] as const)('%s accepts %s: %s', (kind, header, accepted) => {
    expect(acceptsContentType(kind, header)).toBe(accepted);
  });
});
