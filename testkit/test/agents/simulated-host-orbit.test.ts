// The fleetd host simulator against a recording Fleet-shaped server: orbit scripts, device tokens, bad answers, the contract.
import {
  orbitDeviceTokenRequest,
  orbitEnrollRequest,
  orbitNodeRequest,
  orbitScriptRequest,
  orbitScriptResultRequest,
  osqueryDistributedWriteRequest,
  osqueryEnrollRequest,
  osqueryLogRequest,
  osqueryNodeRequest,
} from '@gw/contracts';
import { describe, expect, it } from 'vitest';

import { answersFor } from '../../src/agents/answers-for.js';

import {
  ORBIT,
  OSQUERY,
  calls,
  enrolledHost,
  fleet,
  fleetError,
  fleetOnly,
  hostOnFleet,
  rejection,
} from './fake-fleet.js';

describe('orbit scripts', () => {
  it('requests, runs and posts each pending script in order, with the timeout it ran under', async () => {
    const ran: string[] = [];
    const host = await enrolledHost({
      runScript: (contents, executionId) => {
        ran.push(`${executionId}:${contents}`);
        return executionId === 'exec-1'
          ? { exitCode: 0, output: 'fixed\n', runtimeSeconds: 2.9 }
          : { exitCode: 3, output: 'still broken' };
      },
    });
    fleet.pending = ['exec-1', 'exec-2'];
    fleet.scripts = {
      'exec-1': { contents: 'defaults write a b', exitCode: null },
      'exec-2': { contents: 'fdesetup enable', exitCode: null },
    };
    const summary = await host.checkIn();

    expect(ran).toEqual(['exec-1:defaults write a b', 'exec-2:fdesetup enable']);
    expect(calls(host).slice(-5)).toEqual([
      `${ORBIT}/config 200`,
      `${ORBIT}/scripts/request 200`,
      `${ORBIT}/scripts/result 200`,
      `${ORBIT}/scripts/request 200`,
      `${ORBIT}/scripts/result 200`,
    ]);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/request`)).toEqual([
      { orbit_node_key: 'orbit-key-1', execution_id: 'exec-1' },
      { orbit_node_key: 'orbit-key-1', execution_id: 'exec-2' },
    ]);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([
      {
        orbit_node_key: 'orbit-key-1',
        execution_id: 'exec-1',
        exit_code: 0,
        output: 'fixed\n',
        runtime: 2,
        timeout: 300,
      },
      {
        orbit_node_key: 'orbit-key-1',
        execution_id: 'exec-2',
        exit_code: 3,
        output: 'still broken',
        runtime: 0,
        timeout: 300,
      },
    ]);
    expect(summary.scripts).toEqual([
      { executionId: 'exec-1', outcome: 'exited', exitCode: 0 },
      { executionId: 'exec-2', outcome: 'exited', exitCode: 3 },
    ]);
    expect(fleet.pending).toEqual([]);
  });

  it('posts exit code -1 with the timeout, the full runtime and Go’s kill message for a script killed at its deadline', async () => {
    const host = await enrolledHost({ runScript: () => 'timeout' });
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'sleep 999', exitCode: null } };
    const summary = await host.checkIn();

    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([
      {
        orbit_node_key: 'orbit-key-1',
        execution_id: 'exec-1',
        exit_code: -1,
        output: '\nscript execution error: signal: killed',
        runtime: 300,
        timeout: 300,
      },
    ]);
    expect(summary.scripts).toEqual([{ executionId: 'exec-1', outcome: 'timed_out', exitCode: -1 }]);
  });

  it('posts nothing after a crash and fetches no further script, leaving the executions pending', async () => {
    const host = await enrolledHost();
    host.setRunScript(() => 'crash');
    fleet.pending = ['exec-1', 'exec-2'];
    fleet.scripts = { 'exec-1': { contents: 'a', exitCode: null }, 'exec-2': { contents: 'b', exitCode: null } };
    const summary = await host.checkIn();

    expect(calls(host).slice(-2)).toEqual([`${ORBIT}/config 200`, `${ORBIT}/scripts/request 200`]);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([]);
    expect(summary.scripts).toEqual([{ executionId: 'exec-1', outcome: 'crashed', exitCode: null }]);
    expect(fleet.pending).toEqual(['exec-1', 'exec-2']);
  });

  it('skips an execution the server already has a result for, as orbit does', async () => {
    let runs = 0;
    const host = await enrolledHost({
      runScript: () => {
        runs += 1;
        return { exitCode: 0, output: '' };
      },
    });
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'a', exitCode: 0 } };
    const summary = await host.checkIn();

    expect(runs).toBe(0);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([]);
    expect(summary.scripts).toEqual([{ executionId: 'exec-1', outcome: 'skipped', exitCode: 0 }]);
  });

  it('keeps only the last 40 000 bytes of a long output, as orbit does before posting', async () => {
    const host = await enrolledHost({ runScript: () => ({ exitCode: 0, output: `${'x'.repeat(50_000)}end` }) });
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'a', exitCode: null } };
    await host.checkIn();

    const output = String(fleet.bodiesTo(`${ORBIT}/scripts/result`)[0]?.output);
    expect(output).toHaveLength(40_000);
    expect(output.endsWith('xend')).toBe(true);
  });

  it('throws request_failed with Fleet’s message when a pending script cannot be fetched', async () => {
    const host = await enrolledHost();
    fleet.pending = ['exec-gone'];
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'request_failed', path: `${ORBIT}/scripts/request`, status: 404 });
    expect(error.message).toBe(
      `POST ${ORBIT}/scripts/request: status 404: The script execution was not found for this host.`,
    );
  });
});

describe('device token', () => {
  it('posts the token under the orbit node key and answers the server’s acknowledgement', async () => {
    const host = await enrolledHost();
    const answer = await host.setDeviceToken('3e4f1c2a-8d9b-4c6e-a1f0-5b7d9e2c4a61');

    expect(answer).toEqual({ ok: true, status: 200, body: {} });
    expect(fleet.bodiesTo(`${ORBIT}/device_token`)).toEqual([
      { orbit_node_key: 'orbit-key-1', device_auth_token: '3e4f1c2a-8d9b-4c6e-a1f0-5b7d9e2c4a61' },
    ]);
  });

  it('answers a refusal with its status and Fleet error body instead of throwing', async () => {
    const host = await enrolledHost();
    fleet.answerNext(`${ORBIT}/device_token`, 409, fleetError('This device token belongs to another host.'));

    expect(await host.setDeviceToken('taken')).toEqual({
      ok: false,
      status: 409,
      body: fleetError('This device token belongs to another host.'),
    });
  });

  it('re-enrolls orbit on a 401 and sends the token again under the new key', async () => {
    const host = await enrolledHost();
    fleet.invalidateNodeKeys();
    const answer = await host.setDeviceToken('token-1');

    expect(answer.ok).toBe(true);
    expect(calls(host)).toEqual([`${ORBIT}/device_token 401`, `${ORBIT}/enroll 200`, `${ORBIT}/device_token 200`]);
    expect(fleet.bodiesTo(`${ORBIT}/device_token`).map((body) => body.orbit_node_key)).toEqual([
      'orbit-key-1',
      'orbit-key-3',
    ]);
  });
});

describe('malformed and failed answers', () => {
  it.each([
    [
      'osquery config without options',
      `${OSQUERY}/config`,
      200,
      { schedule: {} },
      /^POST \/api\/v1\/osquery\/config: status 200 answer does not match the agent protocol \(options: /,
    ],
    [
      'distributed/read with a non-string query',
      `${OSQUERY}/distributed/read`,
      200,
      { queries: { q: 1 } },
      /^POST \/api\/v1\/osquery\/distributed\/read: .*\(queries\.q: /,
    ],
    [
      'a 401 without node_invalid',
      `${OSQUERY}/config`,
      401,
      { error: 'nope' },
      /^POST \/api\/v1\/osquery\/config: status 401 without the `\{node_invalid: true, error\}` body/,
    ],
    [
      'orbit config without a timeout',
      `${ORBIT}/config`,
      200,
      { notifications: {} },
      /^POST \/api\/fleet\/orbit\/config: .*\(script_execution_timeout: /,
    ],
    [
      'orbit config that is not JSON',
      `${ORBIT}/config`,
      200,
      '<html>oops</html>',
      /^POST \/api\/fleet\/orbit\/config: status 200 with a body that is not JSON$/,
    ],
    [
      'an orbit 500 without Fleet’s error body',
      `${ORBIT}/config`,
      500,
      { error: 'boom' },
      /^POST \/api\/fleet\/orbit\/config: status 500 answer does not match .*\(message: /,
    ],
  ])('throws malformed_response naming the path for %s', async (_case, path, status, body, message) => {
    const host = await enrolledHost();
    fleet.answerNext(path, status, body);
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'malformed_response', path, status });
    expect(error.message).toMatch(message);
  });

  it('throws malformed_response for a distributed query with empty SQL, which osquery refuses', async () => {
    const host = await enrolledHost();
    fleet.queries = { gw_policy_firewall: '' };

    expect(await rejection(host.checkIn())).toMatchObject({
      code: 'malformed_response',
      path: `${OSQUERY}/distributed/read`,
    });
  });

  it('throws malformed_response for a script answer missing its contents', async () => {
    const host = await enrolledHost();
    fleet.pending = ['exec-1'];
    fleet.answerNext(`${ORBIT}/scripts/request`, 200, {
      execution_id: 'exec-1',
      output: '',
      runtime: 0,
      exit_code: null,
    });
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'malformed_response', path: `${ORBIT}/scripts/request` });
    expect(error.message).toContain('script_contents');
  });

  it('throws request_failed with the server’s error on an osquery 503, and on an error in a 200 body', async () => {
    const host = await enrolledHost();
    fleet.answerNext(`${OSQUERY}/config`, 503, { node_invalid: false, error: 'The store is unavailable.' });
    const unavailable = await rejection(host.checkIn());
    expect(unavailable).toMatchObject({ code: 'request_failed', status: 503 });
    expect(unavailable.message).toBe(`POST ${OSQUERY}/config: status 503: The store is unavailable.`);

    fleet.answerNext(`${OSQUERY}/distributed/read`, 200, { queries: {}, error: 'half done' });
    expect(await rejection(host.checkIn())).toMatchObject({
      code: 'request_failed',
      path: `${OSQUERY}/distributed/read`,
      status: 200,
    });
  });

  it('throws unreachable naming the path when nothing answers', async () => {
    const host = await enrolledHost();
    await fleet.close();
    const error = await rejection(host.checkIn());
    await fleetOnly();

    expect(error).toMatchObject({ code: 'unreachable', path: `${OSQUERY}/config` });
  });
});

describe('the wire contract', () => {
  it('sends only bodies the contract’s request schemas accept, over a full lifecycle', async () => {
    const host = await hostOnFleet({ platform: 'windows', answer: answersFor({ 'FROM bitlocker': true }) });
    await host.enroll();
    fleet.queries = {
      gw_policy_bitlocker: 'SELECT 1 FROM bitlocker_info;',
      gw_policy_defender: 'SELECT 1 FROM windows_security_center;',
    };
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'Enable-BitLocker', exitCode: null } };
    await host.checkIn();
    await host.setDeviceToken('token-1');

    const schemas = new Map<string, { safeParse(input: unknown): { success: boolean; error?: { issues: unknown } } }>([
      [`${OSQUERY}/enroll`, osqueryEnrollRequest],
      [`${OSQUERY}/config`, osqueryNodeRequest],
      [`${OSQUERY}/distributed/read`, osqueryNodeRequest],
      [`${OSQUERY}/distributed/write`, osqueryDistributedWriteRequest],
      [`${OSQUERY}/log`, osqueryLogRequest],
      [`${ORBIT}/enroll`, orbitEnrollRequest],
      [`${ORBIT}/config`, orbitNodeRequest],
      [`${ORBIT}/device_token`, orbitDeviceTokenRequest],
      [`${ORBIT}/scripts/request`, orbitScriptRequest],
      [`${ORBIT}/scripts/result`, orbitScriptResultRequest],
    ]);
    expect(new Set(fleet.received.map((entry) => entry.path))).toEqual(new Set(schemas.keys()));
    for (const entry of fleet.received) {
      const parsed = schemas.get(entry.path)!.safeParse(entry.body);
      expect(parsed.success, `${entry.path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
