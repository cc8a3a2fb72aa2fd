import { z } from 'zod';

/**
 * The agent packages an administrator uploads, one per OS. Each OS names the one package kind its machines install,
 * so a download is unambiguous: macOS a flat installer package (`pkg`, a xar archive), Windows an installer
 * database (`msi`, an OLE compound file), Debian-family Linux a `deb` (an `ar` archive whose first member is
 * `debian-binary`), Red Hat-family Linux an `rpm`.
 */
export const installerOses = ['macos', 'windows', 'linux-deb', 'linux-rpm'] as const;
export type InstallerOs = (typeof installerOses)[number];
export const installerOsSchema = z.enum(installerOses).describe('macos (pkg), windows (msi), linux-deb, linux-rpm');

export type InstallerKind = 'pkg' | 'msi' | 'deb' | 'rpm';

interface KindRule {
  /** The media type a download is served with. */
  contentType: string;
  /** Media types an upload may declare (besides the generic `application/octet-stream`). */
  accepted: readonly string[];
  /** The leading bytes every package of the kind starts with. */
  magic: Buffer;
  /** Bytes that must follow the magic (at `offset`), when the magic alone is shared with other files. */
  then?: { offset: number; bytes: Buffer };
  describe: string;
}

const kindRules: Readonly<Record<InstallerKind, KindRule>> = {
  pkg: {
    contentType: 'application/x-xar',
    accepted: ['application/x-xar', 'application/x-newton-compatible-pkg', 'application/vnd.apple.installer+xml'],
    magic: Buffer.from('78617221', 'hex'),
    describe: 'a macOS flat package (a xar archive, starting "xar!")',
  },
  msi: {
    contentType: 'application/x-msi',
    accepted: ['application/x-msi', 'application/x-ms-installer', 'application/x-ole-storage'],
    magic: Buffer.from('d0cf11e0a1b11ae1', 'hex'),
    describe: 'a Windows installer database (an OLE compound file)',
  },
  deb: {
    contentType: 'application/vnd.debian.binary-package',
    accepted: ['application/vnd.debian.binary-package', 'application/x-debian-package', 'application/x-deb'],
    magic: Buffer.from('!<arch>\n', 'latin1'),
    // The first member's name, at the start of its 60-byte header (GNU ar may end it with a slash).
    then: { offset: 8, bytes: Buffer.from('debian-binary', 'latin1') },
    describe: 'a Debian package (an ar archive whose first member is debian-binary)',
  },
  rpm: {
    contentType: 'application/x-rpm',
    accepted: ['application/x-rpm', 'application/x-redhat-package-manager'],
    magic: Buffer.from('edabeedb', 'hex'),
    describe: 'an RPM package (starting with the RPM lead magic EDABEEDB)',
  },
};

export const kindOfOs: Readonly<Record<InstallerOs, InstallerKind>> = {
  macos: 'pkg',
  windows: 'msi',
  'linux-deb': 'deb',
  'linux-rpm': 'rpm',
};

/** How many leading bytes the checks read: the longest magic, with what must follow it. */
export const headBytes = Math.max(
  ...Object.values(kindRules).map((rule) =>
    rule.then ? rule.then.offset + rule.then.bytes.length : rule.magic.length,
  ),
);

export const servedContentType = (kind: InstallerKind) => kindRules[kind].contentType;

/** Every media type an upload may carry, for the OpenAPI document. */
export const uploadMediaTypes = [
  'application/octet-stream',
  ...new Set(Object.values(kindRules).flatMap((rule) => rule.accepted)),
];

/** Whether an upload's declared `Content-Type` (parameters ignored) may carry a package of the kind. */
export function acceptsContentType(kind: InstallerKind, header: string | undefined): boolean {
  const essence = header?.split(';')[0]?.trim().toLowerCase();
  if (!essence) return false;
  return essence === 'application/octet-stream' || kindRules[kind].accepted.includes(essence);
}

/** Null when the package's first bytes are the kind's; otherwise what the kind should have started with. */
export function magicProblem(kind: InstallerKind, head: Buffer): string | null {
  const rule = kindRules[kind];
  const matches =
    head.subarray(0, rule.magic.length).equals(rule.magic) &&
    (!rule.then || head.subarray(rule.then.offset, rule.then.offset + rule.then.bytes.length).equals(rule.then.bytes));
  return matches ? null : `The upload is not ${rule.describe}.`;
}

export const describeKind = (kind: InstallerKind) => kindRules[kind].describe;
