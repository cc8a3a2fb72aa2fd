import { Agent, createServer, request as httpsRequest, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseYaml } from 'yaml';
import {
  builtinKinds,
  findBuiltin,
  realApiVersion,
  shadowApiVersion,
  shadowGroupOf,
  shadowSuffix,
  type BuiltinKind,
} from './builtin-kinds.js';
import { apiGroup, apiResourceList, apiVersions, mergedGroupList } from './discovery.js';
import { crdResources, openApiV2, openApiV3, openApiV3Index } from './openapi.js';
import type { TestCertificates } from './certificates.js';

/**
 * An HTTPS front for the CRD server that makes it look like a kube-apiserver for the built-in kinds the operator
 * uses: it serves their discovery documents, maps `/api/v1/...` and `/apis/<group>/...` onto the shadow CRDs, and
 * rewrites apiVersions in both directions (bodies, lists, watch streams, Status messages, managedFields), and serves
 * `/openapi/v2` and the CRDs' `/openapi/v3` documents (which the CRD server lacks, `openapi.ts`). Everything else
 * (gw.dev kinds, CRDs, /version) passes through untouched.
 */

export interface BuiltinProxy {
  url: string;
  close(): Promise<void>;
}

interface Route {
  kind: 'discovery';
  body: Record<string, unknown>;
}
interface Forward {
  kind: 'forward';
  path: string;
  builtin?: BuiltinKind;
}
interface GroupList {
  kind: 'group-list';
}

type Resolved =
  | Route
  | Forward
  | GroupList
  | { kind: 'openapi'; version: 'v2' | 'v3'; groupVersionPath: string }
  | { kind: 'not-found' };

function resolve(pathname: string, serverAddress: string): Resolved {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments[0] === 'openapi' && (segments[1] === 'v2' || segments[1] === 'v3')) {
    const groupVersionPath = segments.slice(2).join('/');
    // The CRD server's own documents (its API group, /version) pass through.
    const own = groupVersionPath === 'version' || groupVersionPath.startsWith('apis/apiextensions.k8s.io');
    if (!own) return { kind: 'openapi', version: segments[1], groupVersionPath };
  }
  if (segments[0] === 'api') {
    if (segments.length === 1) return { kind: 'discovery', body: apiVersions(serverAddress) };
    return resolveGroupVersion('', segments[1], segments.slice(2));
  }
  if (segments[0] === 'apis') {
    if (segments.length === 1) return { kind: 'group-list' };
    const group = segments[1];
    if (builtinKinds.some((kind) => kind.group === group)) {
      if (segments.length === 2) {
        const body = apiGroup(group);
        return body ? { kind: 'discovery', body } : { kind: 'not-found' };
      }
      return resolveGroupVersion(group, segments[2], segments.slice(3));
    }
  }
  return { kind: 'forward', path: pathname };
}

function resolveGroupVersion(group: string, version: string, rest: string[]): Resolved {
  if (rest.length === 0) {
    const body = apiResourceList(group, version);
    return body ? { kind: 'discovery', body } : { kind: 'not-found' };
  }
  const withoutWatch = rest[0] === 'watch' ? rest.slice(1) : rest;
  const plural = withoutWatch[0] === 'namespaces' ? withoutWatch[2] : withoutWatch[0];
  const builtin = plural === undefined ? undefined : findBuiltin(group, version, plural);
  if (builtin === undefined) return { kind: 'not-found' };
  return { kind: 'forward', path: `/apis/${shadowGroupOf(group)}/${version}/${rest.join('/')}`, builtin };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The real API server turns `stringData` into base64 `data` on write; the CRD cannot, so the proxy does. */
function foldStringData(object: Json): void {
  if (!isObject(object.stringData)) return;
  const data = isObject(object.data) ? object.data : {};
  for (const [key, value] of Object.entries(object.stringData)) {
    data[key] = Buffer.from(String(value)).toString('base64');
  }
  object.data = data;
  delete object.stringData;
}

function rewriteRequestObject(object: Json): void {
  const builtin = builtinKinds.find(
    (kind) =>
      object.apiVersion === realApiVersion(kind) && (object.kind === kind.kind || object.kind === `${kind.kind}List`),
  );
  if (builtin !== undefined) {
    object.apiVersion = shadowApiVersion(builtin);
    const metadata = isObject(object.metadata) ? object.metadata : {};
    if (Array.isArray(metadata.managedFields)) {
      for (const entry of metadata.managedFields as Json[]) {
        if (entry.apiVersion === realApiVersion(builtin)) entry.apiVersion = shadowApiVersion(builtin);
      }
    }
    if (builtin.kind === 'Secret') foldStringData(object);
  }
  if (Array.isArray(object.items)) for (const item of object.items) if (isObject(item)) rewriteRequestObject(item);
}

/** POST and PUT of the object or its status carry the whole object; the real server fills in a missing kind. */
function writesWholeObject(method: string | undefined, path: string): boolean {
  return (method === 'POST' || method === 'PUT') && !path.endsWith('/scale');
}

function rewriteRequestBody(body: Buffer, contentType: string, builtin: BuiltinKind, wholeObject: boolean): Buffer {
  if (body.length === 0 || !/json|yaml/.test(contentType)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    if (!contentType.includes('yaml')) return body;
    parsed = parseYaml(body.toString('utf8'));
  }
  if (!isObject(parsed)) return body;
  // A merge patch of a Secret may carry stringData without apiVersion/kind.
  if (builtin.kind === 'Secret' && parsed.apiVersion === undefined) foldStringData(parsed);
  if (wholeObject && parsed.apiVersion === undefined && parsed.kind === undefined) {
    parsed.apiVersion = realApiVersion(builtin);
    parsed.kind = builtin.kind;
  }
  rewriteRequestObject(parsed);
  return Buffer.from(JSON.stringify(parsed));
}

/** Shadow names back to real ones, in text: covers objects, lists, managedFields and Status messages alike. */
export function rewriteResponseText(text: string): string {
  const escapedSuffix = shadowSuffix.replace(/[.-]/g, (character) => `\\${character}`);
  return text
    .replace(new RegExp(`"core\\.${escapedSuffix}/`, 'g'), '"')
    .replace(new RegExp(`"core\\.${escapedSuffix}"`, 'g'), '""')
    .replace(new RegExp(`\\.core\\.${escapedSuffix}`, 'g'), '')
    .replace(new RegExp(`\\.${escapedSuffix}`, 'g'), '');
}

function readBody(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolveBody(Buffer.concat(chunks)));
    message.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

const notFound = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  message: 'the server could not find the requested resource',
  reason: 'NotFound',
  code: 404,
};

export interface BuiltinProxyOptions {
  upstreamPort: number;
  certificates: TestCertificates;
}

export async function startBuiltinProxy(options: BuiltinProxyOptions): Promise<BuiltinProxy> {
  const { certificates, upstreamPort } = options;
  const agent = new Agent({
    keepAlive: true,
    ca: certificates.ca,
    cert: certificates.clientCert,
    key: certificates.clientKey,
  });
  let serverAddress = '127.0.0.1:0';

  function upstream(
    method: string,
    path: string,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
  ): Promise<IncomingMessage> {
    return new Promise((resolveResponse, reject) => {
      const outgoing = httpsRequest(
        { host: '127.0.0.1', port: upstreamPort, method, path, headers, agent },
        resolveResponse,
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'https://proxy');
    const resolved = resolve(url.pathname, serverAddress);
    if (resolved.kind === 'discovery') return sendJson(response, 200, resolved.body);
    if (resolved.kind === 'not-found') return sendJson(response, 404, notFound);
    const headers = { ...request.headers };
    delete headers.host;
    delete headers['accept-encoding']; // bodies are rewritten as text
    if (resolved.kind === 'openapi') {
      const answer = await upstream(
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        { accept: 'application/json' },
        Buffer.alloc(0),
      );
      const suffix = `.${shadowSuffix}`;
      const resources = crdResources(
        JSON.parse((await readBody(answer)).toString('utf8')) as Parameters<typeof crdResources>[0],
        (group) => (group === `core${suffix}` ? '' : group.endsWith(suffix) ? group.slice(0, -suffix.length) : group),
      );
      if (resolved.version === 'v2') return sendJson(response, 200, openApiV2(resources));
      if (resolved.groupVersionPath === '') {
        const own = JSON.parse(
          (
            await readBody(await upstream('GET', '/openapi/v3', { accept: 'application/json' }, Buffer.alloc(0)))
          ).toString('utf8'),
        ) as { paths?: Json };
        return sendJson(response, 200, { paths: { ...own.paths, ...openApiV3Index(resources) } });
      }
      const document = openApiV3(resources, resolved.groupVersionPath);
      return document ? sendJson(response, 200, document) : sendJson(response, 404, notFound);
    }
    if (resolved.kind === 'group-list') {
      const answer = await upstream(
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        { accept: 'application/json' },
        Buffer.alloc(0),
      );
      const upstreamList = JSON.parse((await readBody(answer)).toString('utf8')) as Parameters<
        typeof mergedGroupList
      >[0];
      return sendJson(response, 200, mergedGroupList(upstreamList));
    }
    let body = await readBody(request);
    if (resolved.builtin !== undefined) {
      body = rewriteRequestBody(
        body,
        String(request.headers['content-type'] ?? ''),
        resolved.builtin,
        writesWholeObject(request.method, resolved.path),
      );
      headers['content-length'] = String(body.length);
    }
    const answer = await upstream(request.method ?? 'GET', `${resolved.path}${url.search}`, headers, body);
    const responseHeaders = { ...answer.headers };
    if (resolved.builtin === undefined) {
      response.writeHead(answer.statusCode ?? 502, responseHeaders);
      response.flushHeaders(); // watches: headers now, events later
      answer.pipe(response);
      return;
    }
    delete responseHeaders['content-length'];
    response.writeHead(answer.statusCode ?? 502, responseHeaders);
    response.flushHeaders(); // a watch sends headers at once and events later
    // Watch streams are newline-delimited JSON: rewrite line by line so events flow as they happen.
    let pending = '';
    answer.setEncoding('utf8');
    answer.on('data', (chunk: string) => {
      pending += chunk;
      const lastNewline = pending.lastIndexOf('\n');
      if (lastNewline === -1) return;
      response.write(rewriteResponseText(pending.slice(0, lastNewline + 1)));
      pending = pending.slice(lastNewline + 1);
    });
    answer.on('end', () => response.end(rewriteResponseText(pending)));
    answer.on('error', () => response.destroy());
    response.on('close', () => answer.destroy());
  }

  const server: Server = createServer(
    {
      ca: certificates.ca,
      cert: certificates.serverCert,
      key: certificates.serverKey,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent)
          sendJson(response, 502, { ...notFound, reason: 'InternalError', code: 502, message: String(error) });
        else response.destroy();
      });
    },
  );
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  serverAddress = `127.0.0.1:${port}`;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
