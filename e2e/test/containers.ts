import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './process.js';

// The images `npm run image` builds, run as containers with Podman on the host network (README "Container images").
// Podman is not optional here: CI installs it and builds the images first, so a missing engine or image fails the
// test with the command that fixes it instead of skipping it.

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const repository = (process.env.GW_IMAGE_REPO ?? 'localhost').replace(/\/+$/, '');
export const images = {
  component: `${repository}/gw:${version}`,
  operator: `${repository}/gw-operator:${version}`,
  repository: `${repository}/gw`,
  version,
};

const engineEnvironment = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(repoRoot, 'images', 'containers.conf'),
};

function podman(
  args: string[],
  environment: NodeJS.ProcessEnv = engineEnvironment,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('podman', args, { env: environment, encoding: 'utf8' });
  if (result.error)
    throw new Error(
      `podman is not available (${result.error.message}): install podman, runc and mmdebstrap, then run \`npm run image\``,
    );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Fails, with what to run, when the engine or an image is missing. */
export function requireImages(...tags: string[]): void {
  for (const tag of tags) {
    if (podman(['image', 'exists', tag]).status !== 0)
      throw new Error(`image ${tag} is missing: run \`npm run image\``);
  }
}

export interface ImageConfig {
  user: string;
  entrypoint: string[];
  cmd: string[];
  volumes: string[];
  labels: Record<string, string>;
}

export function inspectImage(tag: string): ImageConfig {
  const [config] = JSON.parse(podman(['image', 'inspect', tag]).stdout) as {
    Config: {
      User?: string;
      Entrypoint?: string[];
      Cmd?: string[];
      Volumes?: Record<string, unknown>;
      Labels?: Record<string, string>;
    };
  }[];
  if (!config) throw new Error(`cannot inspect ${tag}`);
  return {
    user: config.Config.User ?? '',
    entrypoint: config.Config.Entrypoint ?? [],
    cmd: config.Config.Cmd ?? [],
    volumes: Object.keys(config.Config.Volumes ?? {}),
    labels: config.Config.Labels ?? {},
  };
}

export interface ContainerSpec {
  image: string;
  /** Replaces the image's entry point (a pod's `command`). */
  command?: string[];
  /** The image's arguments (a pod's `args`). */
  args?: string[];
  env: Record<string, string>;
  /** Empty writable folders, as a pod's emptyDir volumes: mount path → size limit. */
  emptyDirs?: string[];
  /** Host files or folders shown read-only at the same path (what a cluster mounts from a Secret). */
  readOnlyMounts?: string[];
  user?: string;
  readOnlyRootFilesystem?: boolean;
  dropAllCapabilities?: boolean;
  noNewPrivileges?: boolean;
}

export interface RunningContainer {
  name: string;
  logs(): string;
  /** Sends the signal and waits for the container's exit: its code and the seconds it took. */
  stop(signal?: 'TERM' | 'INT' | 'KILL'): Promise<{ exitCode: number; seconds: number }>;
  /** Waits for the container to exit on its own. */
  exited(): Promise<{ exitCode: number; seconds: number }>;
  remove(): void;
}

/** Runs a container on the host network, detached; values reach Podman through its environment, not its argv. */
export function runContainer(spec: ContainerSpec): RunningContainer {
  const name = `gw-e2e-${randomBytes(5).toString('hex')}`;
  const args = ['run', '--detach', '--name', name, '--network', 'host'];
  if (spec.readOnlyRootFilesystem ?? true) args.push('--read-only');
  if (spec.user) args.push('--user', spec.user);
  if (spec.dropAllCapabilities ?? true) args.push('--cap-drop', 'ALL');
  if (spec.noNewPrivileges ?? true) args.push('--security-opt', 'no-new-privileges');
  for (const path of spec.emptyDirs ?? []) args.push('--mount', `type=tmpfs,destination=${path},tmpfs-mode=1777`);
  for (const path of spec.readOnlyMounts ?? []) args.push('--volume', `${path}:${path}:ro`);
  for (const variable of Object.keys(spec.env)) args.push('--env', variable);
  if (spec.command) args.push('--entrypoint', JSON.stringify(spec.command));
  args.push(spec.image, ...(spec.args ?? []));
  const started = podman(args, { ...engineEnvironment, ...spec.env });
  if (started.status !== 0) throw new Error(`podman run ${spec.image} failed: ${started.stderr}`);
  const logs = () => {
    const answer = podman(['logs', name]);
    return `${answer.stdout}${answer.stderr}`;
  };
  const exited = (signal?: string) =>
    new Promise<{ exitCode: number; seconds: number }>((resolve, reject) => {
      const signalledAt = performance.now();
      const waiter = spawn('podman', ['wait', name], { env: engineEnvironment, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      waiter.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      waiter.on('error', reject);
      waiter.on('close', () => {
        const exitCode = Number.parseInt(output.trim(), 10);
        if (Number.isNaN(exitCode)) reject(new Error(`podman wait ${name} gave no exit code:\n${logs()}`));
        else resolve({ exitCode, seconds: (performance.now() - signalledAt) / 1000 });
      });
      if (signal) podman(['kill', '--signal', signal, name]);
    });
  return {
    name,
    logs,
    stop: (signal = 'TERM') => exited(signal),
    exited: () => exited(),
    remove: () => void podman(['rm', '--force', '--time', '0', name]),
  };
}

/** A port nobody listens on now, for a container on the host network (a port forward, in effect). */
export { freeLoopbackPort as freePort } from '@gw/testkit';

/** Status of a GET, or 0 while nothing answers. */
export async function probe(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}
