import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ensureKubeBinaries } from './binaries.js';
import { builtinKinds, shadowCrd } from './builtin-kinds.js';
import { startBuiltinProxy } from './builtin-proxy.js';
import { generateCertificates, kubeconfigYaml, type TestCertificates } from './certificates.js';
import { freePort, startProcess, waitUntil, type Managed } from './processes.js';

/**
 * A real Kubernetes API for tests: etcd + k8s.io/apiextensions-apiserver on ephemeral ports with
 * generated certificates, fronted by the built-in-kinds proxy, reached with a kubeconfig. With KUBECONFIG set
 * (GW_KUBE_USE_KUBECONFIG=1), suites run against that real cluster instead.
 */

export interface KubeTestServer {
  /** Client configuration for @kubernetes/client-node. */
  kubeConfig: KubeConfig;
  /** Path of a kubeconfig file (for kubectl and helm). */
  kubeconfigPath: string;
  /** The proxy URL clients use. */
  url: string;
  certificates?: TestCertificates;
  stop(): Promise<void>;
}

interface HttpsProbe {
  port: number;
  path: string;
  certificates: TestCertificates;
  method?: string;
  body?: string;
}

export function rawRequest(probe: HttpsProbe): Promise<{ status: number; body: string }> {
  return new Promise((resolveRequest, reject) => {
    const outgoing = httpsRequest(
      {
        host: '127.0.0.1',
        port: probe.port,
        path: probe.path,
        method: probe.method ?? 'GET',
        ca: probe.certificates.ca,
        cert: probe.certificates.clientCert,
        key: probe.certificates.clientKey,
        headers: probe.body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolveRequest({ status: response.statusCode ?? 0, body }));
      },
    );
    // A probe the server accepted but never answers must fail (and be retried), not hang the suite.
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`${probe.path}: no answer within 10 s`)));
    outgoing.on('error', reject);
    outgoing.end(probe.body);
  });
}

function etcdHealthy(port: number): Promise<boolean> {
  return new Promise((resolveHealth) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path: '/health' }, (response) => {
      response.resume();
      resolveHealth(response.statusCode === 200);
    });
    outgoing.on('error', () => resolveHealth(false));
    outgoing.end();
  });
}

async function startEtcd(directory: string, binary: string): Promise<{ process: Managed; port: number }> {
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const etcd = startProcess(
    'etcd',
    binary,
    [
      '--data-dir',
      join(directory, 'etcd'),
      '--listen-client-urls',
      client,
      '--advertise-client-urls',
      client,
      '--listen-peer-urls',
      peer,
      '--initial-advertise-peer-urls',
      peer,
      '--initial-cluster',
      `default=${peer}`,
      '--unsafe-no-fsync',
      '--log-level',
      'warn',
    ],
    join(directory, 'etcd.log'),
  );
  await waitUntil(etcd, 'etcd health', () => etcdHealthy(clientPort));
  return { process: etcd, port: clientPort };
}

function apiServerArguments(options: {
  etcdPort: number;
  port: number;
  certificates: TestCertificates;
  selfConfig: string;
  coreConfig: string;
}): string[] {
  const { certificates } = options;
  return [
    '--etcd-servers',
    `http://127.0.0.1:${options.etcdPort}`,
    '--bind-address',
    '127.0.0.1',
    '--secure-port',
    String(options.port),
    '--tls-cert-file',
    certificates.serverCertFile,
    '--tls-private-key-file',
    certificates.serverKeyFile,
    // Client certificates authenticate; there is no core API server to review tokens or access, so every
    // authenticated request is allowed (the delegated kubeconfigs point at the server itself and are never asked).
    '--client-ca-file',
    certificates.caFile,
    '--authentication-skip-lookup',
    '--authentication-kubeconfig',
    options.selfConfig,
    '--authorization-kubeconfig',
    options.selfConfig,
    '--authorization-always-allow-paths',
    '/*',
    // The "core" server its informers read (Services for webhook resolution) is the proxy in front of it.
    '--kubeconfig',
    options.coreConfig,
    '--enable-priority-and-fairness=false',
    // Watches go straight to etcd: no watch-cache warm-up answering 429 right after a CRD is created.
    '--watch-cache=false',
    '--disable-admission-plugins',
    'NamespaceLifecycle,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy,MutatingAdmissionPolicy',
  ];
}

async function installShadowCrds(port: number, certificates: TestCertificates): Promise<void> {
  for (const kind of builtinKinds) {
    const { status, body } = await rawRequest({
      port,
      certificates,
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: JSON.stringify(shadowCrd(kind)),
    });
    if (status !== 201 && status !== 409)
      throw new Error(`installing the ${kind.kind} CRD failed (${status}): ${body}`);
  }
}

export async function startKubeTestServer(): Promise<KubeTestServer> {
  if (process.env.GW_KUBE_USE_KUBECONFIG === '1' && process.env.KUBECONFIG) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromDefault();
    return {
      kubeConfig,
      kubeconfigPath: process.env.KUBECONFIG,
      url: kubeConfig.getCurrentCluster()?.server ?? '',
      stop: async () => {},
    };
  }
  const binaries = await ensureKubeBinaries();
  // The ports are probed free and bound later by other processes: on a busy machine another test's listener can take
  // one in between (the API server then exits, or a probe meets a server that is not it). A fresh try picks new ports.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startLocalServer(binaries);
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function startLocalServer(binaries: Awaited<ReturnType<typeof ensureKubeBinaries>>): Promise<KubeTestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'gw-kube-'));
  const started: Managed[] = [];
  const stopAll = async (): Promise<void> => {
    for (const managed of started.reverse()) await managed.stop();
  };
  try {
    const certificates = await generateCertificates(directory);
    const etcd = await startEtcd(directory, binaries.etcd);
    started.push(etcd.process);
    const apiPort = await freePort();
    const proxy = await startBuiltinProxy({ upstreamPort: apiPort, certificates });
    const selfConfig = join(directory, 'self.kubeconfig');
    const kubeconfigPath = join(directory, 'kubeconfig');
    await writeFile(selfConfig, kubeconfigYaml(`https://127.0.0.1:${apiPort}`, certificates));
    await writeFile(kubeconfigPath, kubeconfigYaml(proxy.url, certificates));
    const apiServer = startProcess(
      'apiextensions-apiserver',
      binaries.apiServer,
      apiServerArguments({ etcdPort: etcd.port, port: apiPort, certificates, selfConfig, coreConfig: kubeconfigPath }),
      join(directory, 'apiserver.log'),
    );
    started.push(apiServer);
    const healthy = (path: string) => async () =>
      (await rawRequest({ port: apiPort, path, certificates })).status === 200;
    await waitUntil(apiServer, 'healthz', healthy('/healthz'));
    await installShadowCrds(apiPort, certificates);
    await waitUntil(apiServer, 'readyz', healthy('/readyz'));
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    return {
      kubeConfig,
      kubeconfigPath,
      url: proxy.url,
      certificates,
      async stop() {
        await proxy.close();
        await stopAll();
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopAll();
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
