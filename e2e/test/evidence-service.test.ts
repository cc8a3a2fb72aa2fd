import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startService, type RunningService } from './process.js';

const adminToken = 'e2e-evidence-admin-token-0123456789';
const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

// The built evidence service as a process on the embedded store: a connector reports, the admin plane sees the rollup.
describe('the evidence service as a process', () => {
  let dataDir: string;
  let service: RunningService;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-evidence-'));
    service = await startService('evidence/dist/main.js', {
      GW_DATA_DIR: dataDir,
      GW_EVIDENCE_PORT: '0',
      GW_ENDPOINT_CONTROL_ADMIN_TOKEN: adminToken,
    });
  }, 60_000);
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists its environment with --help', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(repoRoot, 'evidence/dist/main.js'), '--help']);
    expect(stdout).toContain('GW_ENDPOINT_CONTROL_ADMIN_TOKEN');
    expect(stdout).toContain('GW_EVIDENCE_DB_URL');
  });

  it('takes a connector report and answers the rollup, then drains on SIGTERM', async () => {
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    const org = (await (
      await fetch(`${service.url}/admin/orgs`, {
        method: 'POST',
        headers: json(adminToken),
        body: JSON.stringify({ name: 'Acme' }),
      })
    ).json()) as { id: string };
    const minted = (await (
      await fetch(`${service.url}/admin/orgs/${org.id}/evidence-connectors/kandji/rotate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}` },
      })
    ).json()) as { token: string };
    const report = await fetch(`${service.url}/api/v1/evidence/report`, {
      method: 'POST',
      headers: json(minted.token),
      body: JSON.stringify({
        device: { id: 'serial-001', platform: 'darwin' },
        results: [{ policyName: 'macos-disk-encryption', response: 'fail' }],
      }),
    });
    expect(report.status).toBe(202);
    const rollup = await (
      await fetch(`${service.url}/admin/orgs/${org.id}/rollup`, { headers: { authorization: `Bearer ${adminToken}` } })
    ).json();
    expect(rollup).toMatchObject({
      hosts: { total: 1, reporting: 1, stale: 0 },
      compliance: { failing: 1 },
      failingPolicies: { 'macos-disk-encryption': 1 },
    });
    expect(service.output()).not.toContain(minted.token);
    expect(await service.stop('SIGTERM')).toBe(0);
  }, 60_000);
});
