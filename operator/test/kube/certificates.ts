import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificates {
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  ca: Buffer;
  serverCert: Buffer;
  serverKey: Buffer;
  clientCert: Buffer;
  clientKey: Buffer;
}

const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function signed(directory: string, name: string, subject: string, extensions: string): Promise<void> {
  const path = (suffix: string): string => join(directory, `${name}.${suffix}`);
  await run('openssl', ['req', ...curve, '-keyout', path('key'), '-out', path('csr'), '-subj', subject]);
  await writeFile(path('ext'), extensions);
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    path('csr'),
    '-CA',
    join(directory, 'ca.crt'),
    '-CAkey',
    join(directory, 'ca.key'),
    '-CAcreateserial',
    '-out',
    path('crt'),
    '-days',
    '2',
    '-extfile',
    path('ext'),
  ]);
}

/** A throwaway CA, a server certificate for 127.0.0.1/localhost, and an admin client certificate (openssl). */
export async function generateCertificates(directory: string): Promise<TestCertificates> {
  await run('openssl', [
    'req',
    '-x509',
    ...curve,
    '-keyout',
    join(directory, 'ca.key'),
    '-out',
    join(directory, 'ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=gw-kube-test-ca',
  ]);
  await signed(
    directory,
    'server',
    '/CN=localhost',
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  await signed(directory, 'client', '/O=system:masters/CN=gw-kube-test-admin', 'extendedKeyUsage=clientAuth\n');
  const files = {
    caFile: join(directory, 'ca.crt'),
    serverCertFile: join(directory, 'server.crt'),
    serverKeyFile: join(directory, 'server.key'),
    clientCertFile: join(directory, 'client.crt'),
    clientKeyFile: join(directory, 'client.key'),
  };
  const [ca, serverCert, serverKey, clientCert, clientKey] = await Promise.all(
    [files.caFile, files.serverCertFile, files.serverKeyFile, files.clientCertFile, files.clientKeyFile].map((file) =>
      readFile(file),
    ),
  );
  return {
    ...files,
    ca: ca,
    serverCert: serverCert,
    serverKey: serverKey,
    clientCert: clientCert,
    clientKey: clientKey,
  };
}

export function kubeconfigYaml(server: string, certificates: TestCertificates, namespace = 'default'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: gw-test',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority: ${certificates.caFile}`,
    'users:',
    '- name: gw-test-admin',
    '  user:',
    `    client-certificate: ${certificates.clientCertFile}`,
    `    client-key: ${certificates.clientKeyFile}`,
    'contexts:',
    '- name: gw-test',
    `  context: {cluster: gw-test, user: gw-test-admin, namespace: ${namespace}}`,
    'current-context: gw-test',
    '',
  ].join('\n');
}
