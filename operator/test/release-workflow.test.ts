import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

// The release workflow cannot run here (it needs a hosted forge and its registry), so it is checked against what it
// builds: the Containerfile's targets, the charts that exist, the platforms and the SBOM the install docs promise.

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: { push: { tags: string[] } };
  jobs: Record<
    string,
    {
      needs?: string[];
      steps: Step[];
      strategy?: { matrix: { include: { target: string; name: string }[] } };
      permissions?: Record<string, string>;
    }
  >;
}

describe('the release workflow', () => {
  it('builds every Containerfile target for amd64 and arm64 with an SBOM, and pushes every chart as an OCI artifact', async () => {
    const workflow = parse(await readFile(`${root}.github/workflows/release.yml`, 'utf8')) as Workflow;
    expect(workflow.on.push.tags).toEqual(['v*']);

    const targets = [
      ...(await readFile(`${root}Containerfile`, 'utf8')).matchAll(/^FROM \S+ AS (component|operator)$/gm),
    ].map((match) => match[1]);
    const images = workflow.jobs.images;
    expect(images.strategy?.matrix.include).toEqual([
      { target: 'component', name: 'gw' },
      { target: 'operator', name: 'gw-operator' },
    ]);
    expect(images.strategy?.matrix.include.map((entry) => entry.target).sort()).toEqual(targets.sort());
    expect(images.permissions).toMatchObject({ packages: 'write' });
    const build = images.steps.find((step) => step.uses?.startsWith('docker/build-push-action@'));
    expect(build?.with).toMatchObject({
      file: 'Containerfile',
      target: '${{ matrix.target }}',
      platforms: 'linux/amd64,linux/arm64',
      push: true,
      sbom: true,
    });
    expect(String(build?.with?.['build-args'])).toMatch(/VERSION=\$\{\{ needs\.version\.outputs\.version \}\}/);
    expect(images.needs).toEqual(['version', 'test']);

    const charts = (await readdir(`${root}charts`, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const push = workflow.jobs.charts.steps.find((step) => step.run?.includes('helm push'))?.run ?? '';
    expect(push).toMatch(new RegExp(`for chart in ${charts.join(' ')}; do`));
    expect(push).toMatch(/helm push "dist\/charts\/\$chart-\$VERSION\.tgz" "oci:\/\/\$REGISTRY\/charts"/);
  });
});
