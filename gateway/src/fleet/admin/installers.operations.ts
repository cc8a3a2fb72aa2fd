import { z } from 'zod';
import type { Clock, Db } from '@gw/platform';
import { gatewayError } from '../../errors.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import {
  installerOses,
  installerOsSchema,
  kindOfOs,
  servedContentType,
  uploadMediaTypes,
} from '../installers/installer-kinds.js';
import { sendInstaller } from '../installers/installer-download.js';
import { InstallerStore, type InstallerRecord } from '../installers/installer.store.js';
import { receiveInstaller } from '../installers/installer-upload.js';

export interface InstallerOperationDeps {
  db: Db;
  clock: Clock;
  /** `GW_FLEET_INSTALLER_MAX_BYTES`. */
  maxBytes: number;
}

const kindSchema = z.enum(['pkg', 'msi', 'deb', 'rpm']);
const osParams = z.object({ os: installerOsSchema });

const installerView = z.object({
  os: installerOsSchema,
  kind: kindSchema,
  contentType: z.string().describe('The media type a download is served with'),
  sizeBytes: z.number().int(),
  sha256: z.string().describe('Lowercase hex SHA-256 of the package; a download carries it as ETag and Repr-Digest'),
  uploadedAt: z.string(),
  uploadedBy: z.string().describe('The administrator who uploaded it'),
});
const listView = z.object({
  installers: z.array(installerView).describe('The current package of each OS that has one'),
  supported: z
    .array(z.object({ os: installerOsSchema, kind: kindSchema, contentType: z.string() }))
    .describe('Each OS and the package kind it installs'),
  maxBytes: z.number().int().describe('The largest package an upload may carry (GW_FLEET_INSTALLER_MAX_BYTES)'),
});

const viewOf = (record: InstallerRecord): z.infer<typeof installerView> => ({
  os: record.os,
  kind: record.kind,
  contentType: record.contentType,
  sizeBytes: record.sizeBytes,
  sha256: record.sha256,
  uploadedAt: record.uploadedAt,
  uploadedBy: record.uploadedBy,
});

const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The endpoint agent's installer packages, one per OS (`gateway/src/fleet/README.md`): listed (`fleet:read`),
 * downloaded (`fleet:enroll`), uploaded (`fleet:write`). Uploads and downloads stream through the store a chunk at
 * a time; deployment-wide, since every tenant installs the same agent.
 */
export function installerOperations(deps: InstallerOperationDeps): AdminOperation[] {
  const store = new InstallerStore(deps.db);
  return [
    defineOperation({
      id: 'fleet.installers.list',
      summary: 'The uploaded agent installers (OS, kind, size, SHA-256, when and by whom), and the kind each OS takes',
      method: 'GET',
      capability: 'enrollment:manage',
      legacy: [{ path: '/admin/endpoint-fleet/installers' }],
      v1: { path: '/admin/v1/fleet/installers' },
      xScope: 'deployment',
      response: listView,
      handler: async () => ({
        installers: (await store.list()).map(viewOf),
        supported: installerOses.map((os) => ({
          os,
          kind: kindOfOs[os],
          contentType: servedContentType(kindOfOs[os]),
        })),
        maxBytes: deps.maxBytes,
      }),
    }),
    defineOperation({
      id: 'fleet.installers.download',
      summary:
        'Download the OS’s agent installer, streamed with Content-Length; ETag and Repr-Digest carry its SHA-256; one byte Range is served as 206',
      description:
        'Headers: `Content-Length`, `Content-Type` of the kind, `ETag` (the quoted hex SHA-256), `Repr-Digest: sha-256=:<base64>:` and `Digest: sha-256=<base64>` (the whole package), `Accept-Ranges: bytes`. One `Range: bytes=a-b`, `a-` or `-n` is served as 206 with `Content-Range`; a range past the end answers 416 `range_not_satisfiable`; a matching `If-None-Match` 304. 404 `installer_not_found` until one is uploaded.',
      method: 'GET',
      capability: 'enrollment:manage',
      legacy: [{ path: '/admin/endpoint-fleet/installers/:os' }],
      v1: { path: '/admin/v1/fleet/installers/{os}', scope: 'fleet:enroll' },
      xScope: 'deployment',
      params: osParams,
      media: {
        response: [...new Set(installerOses.map((os) => servedContentType(kindOfOs[os])))],
        statuses: { 206: 'One byte range of the package', 304: 'The package matches If-None-Match' },
      },
      response: z.string().describe('The package’s bytes'),
      handler: async ({ params, request, reply }) => {
        const record = await store.get(params.os);
        if (!record) throw gatewayError('installer_not_found');
        return sendInstaller(
          store,
          record,
          { range: request.headers.range, ifNoneMatch: firstHeader(request.headers['if-none-match']) },
          reply,
        );
      },
    }),
    defineOperation({
      id: 'fleet.installers.upload',
      summary:
        'Upload (or replace) the OS’s agent installer as the raw request body: checked for its media type, leading bytes and size (413 over GW_FLEET_INSTALLER_MAX_BYTES); the previous one stays until the new one is complete',
      description:
        'The body is the package itself, streamed (never JSON). macos takes a pkg (xar, starting 78617221), windows an msi (OLE compound file, D0CF11E0A1B11AE1), linux-deb a deb (an ar archive whose first member is debian-binary), linux-rpm an rpm (EDABEEDB). 415 `installer_media_type` when the Content-Type names another kind (application/octet-stream always passes); 400 `installer_not_a_package` when the leading bytes are not the kind’s; 413 `installer_too_large` over GW_FLEET_INSTALLER_MAX_BYTES (default 256 MiB), announced by Content-Length or counted; 400 `installer_incomplete` when the body ends short of its Content-Length. Each refusal, and a client that goes away, stores nothing and leaves the previous package current. Audited with the OS and the SHA-256.',
      method: 'PUT',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/endpoint-fleet/installers/:os' }],
      v1: { path: '/admin/v1/fleet/installers/{os}' },
      xScope: 'deployment',
      params: osParams,
      media: { request: uploadMediaTypes },
      response: installerView,
      // The audit names the package by its hash, never anything it contains.
      auditSubjects: ({ params, result }) => ({
        target: `${(params as { os: string }).os} sha256:${(result as { sha256: string }).sha256}`,
        subject: null,
      }),
      handler: async ({ params, principal, request }) => {
        const length = firstHeader(request.headers['content-length']);
        const record = await receiveInstaller(
          { store, clock: deps.clock },
          {
            os: params.os,
            body: request.raw,
            contentType: request.headers['content-type'],
            declaredLength: length === undefined || length === '' ? null : Number(length),
            maxBytes: deps.maxBytes,
            actor: principal.actor,
          },
        );
        return viewOf(record);
      },
    }),
  ];
}
