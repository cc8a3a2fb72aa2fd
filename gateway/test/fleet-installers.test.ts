import { createHash, randomBytes } from 'node:crypto';
import type { TestDb } from '@gw/testkit';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, startTestGateway, testStores, type TestGateway } from './helpers.js';

const mib = 1024 * 1024;
const maxBytes = 3 * mib;

// A package of each kind: its real leading bytes, then noise, spanning several 1 MiB chunks.
const magicOf: Record<string, Buffer> = {
  macos: Buffer.from('78617221', 'hex'),
  windows: Buffer.from('d0cf11e0a1b11ae1', 'hex'),
  'linux-deb': Buffer.from('!<arch>\ndebian-binary   ', 'latin1'),
  'linux-rpm': Buffer.from('edabeedb', 'hex'),
};
const contentTypeOf: Record<string, string> = {
  macos: 'application/x-xar',
  windows: 'application/x-msi',
  'linux-deb': 'application/vnd.debian.binary-package',
  'linux-rpm': 'application/x-rpm',
};
const packageFor = (os: string, size = 2.5 * mib) =>
  Buffer.concat([magicOf[os], randomBytes(size - magicOf[os].length)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(testStores)('agent installers on %s', (_name, open) => {
  let store: TestDb;
  let gateway: TestGateway;
  const upload = (os: string, payload: Buffer | Readable, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method: 'PUT',
      url: `/admin/v1/fleet/installers/${os}`,
      headers: { ...adminHeaders, 'content-type': 'application/octet-stream', ...headers },
      payload,
    });
  const download = (url: string, headers: Record<string, string> = {}) =>
    gateway.app.inject({ method: 'GET', url, headers: { ...adminHeaders, ...headers } });
  const chunkRows = async () =>
    (await gateway.deps.db.query<{ upload_id: string }>('SELECT upload_id FROM gw_fleet_installer_chunks')).rows;
  const currentUploads = async () =>
    new Set(
      (await gateway.deps.db.query<{ upload_id: string }>('SELECT upload_id FROM gw_fleet_installers')).rows.map(
        (row) => row.upload_id,
      ),
    );

  beforeAll(async () => {
    store = await open();
    gateway = await startTestGateway({ db: store.db, env: { GW_FLEET_INSTALLER_MAX_BYTES: String(maxBytes) } });
  });
  afterAll(async () => {
    await gateway?.close();
    await store?.dispose();
  });

  it('round-trips a package of every kind byte for byte, its SHA-256 on the download and in the list', async () => {
    for (const os of ['macos', 'windows', 'linux-deb', 'linux-rpm']) {
      const bytes = packageFor(os);
      const uploaded = await upload(os, bytes, { 'content-type': contentTypeOf[os] });
      expect(uploaded.statusCode).toBe(200);
      expect(uploaded.json()).toMatchObject({ os, sizeBytes: bytes.length, sha256: sha256(bytes) });

      for (const url of [`/admin/v1/fleet/installers/${os}`, `/admin/endpoint-fleet/installers/${os}`]) {
        const fetched = await download(url);
        expect(fetched.statusCode).toBe(200);
        expect(fetched.rawPayload.equals(bytes)).toBe(true);
        expect(sha256(fetched.rawPayload)).toBe(sha256(bytes));
        expect(fetched.headers['content-length']).toBe(String(bytes.length));
        expect(fetched.headers['content-type']).toBe(contentTypeOf[os]);
        expect(fetched.headers.etag).toBe(`"${sha256(bytes)}"`);
        const digest = createHash('sha256').update(bytes).digest('base64');
        expect(fetched.headers['repr-digest']).toBe(`sha-256=:${digest}:`);
        expect(fetched.headers.digest).toBe(`sha-256=${digest}`);
      }
    }
    const listed = await download('/admin/endpoint-fleet/installers');
    expect(listed.statusCode).toBe(200);
    const { installers, supported, maxBytes: limit } = listed.json();
    expect(limit).toBe(maxBytes);
    expect(supported).toEqual([
      { os: 'macos', kind: 'pkg', contentType: 'application/x-xar' },
      { os: 'windows', kind: 'msi', contentType: 'application/x-msi' },
      { os: 'linux-deb', kind: 'deb', contentType: 'application/vnd.debian.binary-package' },
      { os: 'linux-rpm', kind: 'rpm', contentType: 'application/x-rpm' },
    ]);
    expect(installers).toHaveLength(4);
    for (const installer of installers)
      expect(installer).toEqual({
        os: expect.any(String),
        kind: expect.stringMatching(/^(pkg|msi|deb|rpm)$/),
        contentType: expect.any(String),
        sizeBytes: 2.5 * mib,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        uploadedAt: new Date(gateway.clock.now()).toISOString(),
        uploadedBy: expect.any(String),
      });
    // Only the current packages' chunks remain: 3 chunks of at most 1 MiB each.
    expect(await chunkRows()).toHaveLength(12);

    const audit = (await download('/admin/v1/audit/events?category=fleet')).json().data;
    expect(audit.filter((event: { action: string }) => event.action === 'fleet.installers.upload')).toHaveLength(4);
    expect(audit.map((event: { target: string }) => event.target)).toEqual(
      expect.arrayContaining(
        ['macos', 'windows', 'linux-deb', 'linux-rpm'].map((os) =>
          expect.stringMatching(new RegExp(`^${os} sha256:[0-9a-f]{64}$`)),
        ),
      ),
    );
  });

  it('serves one byte range as 206 and answers a matching If-None-Match with 304', async () => {
    const bytes = packageFor('macos');
    await upload('macos', bytes);
    const start = mib - 10;
    const end = 2 * mib + 9;
    const partial = await download('/admin/v1/fleet/installers/macos', { range: `bytes=${start}-${end}` });
    expect(partial.statusCode).toBe(206);
    expect(partial.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
    expect(partial.headers['content-length']).toBe(String(end - start + 1));
    expect(partial.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
    const tail = await download('/admin/v1/fleet/installers/macos', { range: 'bytes=-5' });
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 5))).toBe(true);
    const beyond = await download('/admin/v1/fleet/installers/macos', { range: `bytes=${bytes.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(beyond.json().error.code).toBe('range_not_satisfiable');
    const unchanged = await download('/admin/v1/fleet/installers/macos', { 'if-none-match': `"${sha256(bytes)}"` });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload).toHaveLength(0);
  });

  it('refuses a package over the limit with 413 and stores nothing, announced or counted', async () => {
    const before = packageFor('windows');
    expect((await upload('windows', before)).statusCode).toBe(200);
    const rows = await chunkRows();
    const announced = await upload('windows', packageFor('windows', maxBytes + 1));
    expect(announced.statusCode).toBe(413);
    expect(announced.json()).toEqual({
      error: {
        code: 'installer_too_large',
        message: expect.stringContaining(String(maxBytes)),
        request_id: expect.any(String),
      },
    });
    // Chunked, no Content-Length: the running count stops it once it passes the limit.
    const counted = await upload('windows', Readable.from([packageFor('windows', 2 * mib), randomBytes(2 * mib)]));
    expect(counted.statusCode).toBe(413);
    expect(counted.json().error.code).toBe('installer_too_large');
    const legacy = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/endpoint-fleet/installers/windows',
      headers: { ...adminHeaders, 'content-type': 'application/x-msi' },
      payload: packageFor('windows', maxBytes + 1),
    });
    expect(legacy.statusCode).toBe(413);
    expect(legacy.json()).toEqual({ error: { code: 'installer_too_large', message: expect.any(String) } });
    expect(await chunkRows()).toEqual(rows);
    expect((await download('/admin/v1/fleet/installers/windows')).rawPayload.equals(before)).toBe(true);
  });

  it('refuses the wrong magic number with 400 and the wrong media type with 415, storing nothing', async () => {
    const rows = await chunkRows();
    const rpmAsDeb = await upload('linux-deb', packageFor('linux-rpm'));
    expect(rpmAsDeb.statusCode).toBe(400);
    expect(rpmAsDeb.json().error).toMatchObject({
      code: 'installer_not_a_package',
      message: expect.stringContaining('Debian package'),
    });
    // An ar archive that is not a Debian package (its first member is not debian-binary).
    const plainAr = Buffer.concat([Buffer.from('!<arch>\nlibfoo.o/       ', 'latin1'), randomBytes(1000)]);
    expect((await upload('linux-deb', plainAr)).json().error.code).toBe('installer_not_a_package');
    expect((await upload('macos', Buffer.from('xa'))).json().error.code).toBe('installer_not_a_package');
    const media = await upload('windows', packageFor('windows'), { 'content-type': 'application/json' });
    expect(media.statusCode).toBe(415);
    expect(media.json().error.code).toBe('installer_media_type');
    const wrongKind = await upload('windows', packageFor('windows'), { 'content-type': 'application/x-rpm' });
    expect(wrongKind.statusCode).toBe(415);
    const unknownOs = await upload('beos', packageFor('windows'));
    expect(unknownOs.statusCode).toBe(400);
    expect(await chunkRows()).toEqual(rows);
  });

  it('keeps the previous package intact when the client goes away half way through an upload', async () => {
    const previous = packageFor('linux-rpm');
    expect((await upload('linux-rpm', previous)).statusCode).toBe(200);
    const current = await currentUploads();
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gateway.app.server.address() as AddressInfo;
    const replacement = packageFor('linux-rpm');
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/admin/v1/fleet/installers/linux-rpm',
      headers: {
        ...adminHeaders,
        'content-type': 'application/x-rpm',
        'content-length': String(replacement.length),
      },
    });
    client.on('error', () => undefined);
    client.write(replacement.subarray(0, 1.5 * mib));
    // Once the gateway has staged the replacement's first chunk, the client goes away mid-body.
    await vi.waitFor(async () => expect((await chunkRows()).some((row) => !current.has(row.upload_id))).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    client.destroy();
    await vi.waitFor(async () => expect((await chunkRows()).every((row) => current.has(row.upload_id))).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    const fetched = await download('/admin/v1/fleet/installers/linux-rpm');
    expect(fetched.rawPayload.equals(previous)).toBe(true);
    expect(fetched.headers.etag).toBe(`"${sha256(previous)}"`);

    // Over the limit on a real socket, chunked: the client reads the 413 although it has more to send.
    const oversize = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/admin/v1/fleet/installers/linux-rpm',
      headers: { ...adminHeaders, 'content-type': 'application/x-rpm' },
    });
    oversize.on('error', () => undefined);
    const answered = new Promise<{ status: number | undefined; body: string }>((resolve) =>
      oversize.on('response', (response) => {
        let body = '';
        response.on('data', (piece: Buffer) => (body += piece.toString()));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      }),
    );
    oversize.write(packageFor('linux-rpm', 2 * mib));
    oversize.write(randomBytes(2 * mib));
    const answer = await answered;
    oversize.destroy();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe('installer_too_large');
    expect((await download('/admin/v1/fleet/installers/linux-rpm')).rawPayload.equals(previous)).toBe(true);
  });

  it('gates each route by its scope and capability', async () => {
    const reader = await mintAdminKey(gateway.app, { label: 'reader', scopes: ['fleet:read'] });
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    expect((await download('/admin/v1/fleet/installers', as(reader.key))).statusCode).toBe(200);
    const refusedDownload = await download('/admin/v1/fleet/installers/macos', as(reader.key));
    expect(refusedDownload.statusCode).toBe(403);
    expect(refusedDownload.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'fleet:enroll' });
    const refusedUpload = await upload('macos', packageFor('macos'), as(reader.key));
    expect(refusedUpload.statusCode).toBe(403);
    expect(refusedUpload.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'fleet:write' });

    const enroller = await mintAdminKey(gateway.app, { label: 'enroller', scopes: ['fleet:enroll'] });
    expect((await download('/admin/v1/fleet/installers/macos', as(enroller.key))).statusCode).toBe(200);
    const viewer = await mintAdminKey(gateway.app, { label: 'viewer', caps: ['enrollment:manage'] }, adminHeaders);
    const legacyUpload = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/endpoint-fleet/installers/macos',
      headers: { ...as(viewer.key), 'content-type': 'application/octet-stream' },
      payload: packageFor('macos'),
    });
    expect(legacyUpload.statusCode).toBe(403);
    expect(
      (
        await gateway.app.inject({
          method: 'GET',
          url: '/admin/endpoint-fleet/installers/macos',
          headers: as(viewer.key),
        })
      ).statusCode,
    ).toBe(200);
    expect((await download('/admin/v1/fleet/installers/macos', { authorization: 'Bearer nope' })).statusCode).toBe(401);
  });
});

describe('an OS without an installer', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => gateway?.close());

  it('answers 404 installer_not_found and lists nothing, with the default limit of 256 MiB', async () => {
    const missing = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/fleet/installers/windows',
      headers: adminHeaders,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('installer_not_found');
    const listed = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/fleet/installers',
      headers: adminHeaders,
    });
    expect(listed.json()).toMatchObject({ installers: [], maxBytes: 256 * mib });
  });
});
