import { describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey, testStores } from './helpers.js';

describe.each(testStores)(
  'enrollment links: minted by an administrator, redeemed by the connect CLI on %s',
  (_name, open) => {
    const gateway = gatewayPerTest({ open });
    const mint = (payload: Record<string, unknown>) =>
      gateway.app.inject({ method: 'POST', url: '/admin/v1/enrollment/links', headers: adminHeaders, payload });
    const redeem = (token: string, payload?: Record<string, unknown>) =>
      gateway.app.inject({
        method: 'POST',
        url: '/connect/verify',
        headers: bearer(token),
        ...(payload ? { payload } : {}),
      });

    it('mints a client key for the team the link names, shown once, that then verifies and calls the gateway', async () => {
      const created = await mint({ team: 'platform', user: 'Ada@Example.com', label: 'ada laptop' });
      expect(created.statusCode).toBe(201);
      expect(created.headers['cache-control']).toBe('no-store');
      const { link, token } = created.json();
      expect(token).toMatch(/^aen_/);
      expect(link).toMatchObject({
        id: expect.stringMatching(/^enl_/),
        team: 'platform',
        user: 'Ada@Example.com',
        maxUses: 1,
        uses: 0,
        status: 'active',
        createdBy: 'admin-token',
      });
      expect(Date.parse(link.expiresAt) - gateway.clock.now()).toBe(72 * 3_600_000);

      const enrolled = await redeem(token);
      expect(enrolled.statusCode).toBe(201);
      expect(enrolled.headers['cache-control']).toBe('no-store');
      const body = enrolled.json();
      expect(body).toMatchObject({
        status: 'ok',
        user: 'Ada@Example.com',
        team: 'platform',
        key: { type: 'client', source: 'enrollment' },
        enrollment: { id: link.id, usesLeft: 0 },
        seat: { offboarded: false },
      });
      expect(body.mintedKey).toMatch(/^ark_/);

      const verified = await redeem(body.mintedKey);
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toMatchObject({ status: 'ok', user: 'Ada@Example.com', key: { id: body.key.id } });
      expect(verified.json().mintedKey).toBeUndefined();
      expect(
        (await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(body.mintedKey) })).json(),
      ).toMatchObject({ user: 'Ada@Example.com', team: 'platform' });

      const again = await redeem(token);
      expect(again.statusCode).toBe(401);
      expect(again.json()).toMatchObject({ status: 'failure', code: 'enrollment_exhausted' });
      const listed = (
        await gateway.app.inject({ method: 'GET', url: '/admin/v1/enrollment/links', headers: adminHeaders })
      ).json().links;
      expect(listed).toMatchObject([{ id: link.id, uses: 1, status: 'exhausted' }]);
      expect(JSON.stringify(listed)).not.toContain(token);
      const audit = (
        await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?category=keys', headers: adminHeaders })
      ).json().data;
      expect(audit).toContainEqual(
        expect.objectContaining({ action: 'enrollment.redeem', actor: `enrollment:${link.id}`, target: body.key.id }),
      );
    });

    it('binds the redeemer: a link for one developer refuses another, an open link needs an address', async () => {
      const bound = (await mint({ team: 'platform', user: 'ada@example.com', maxUses: 5 })).json();
      const mismatch = await redeem(bound.token, { user: 'grace@example.com' });
      expect(mismatch.statusCode).toBe(403);
      expect(mismatch.json().code).toBe('enrollment_user_mismatch');
      expect((await redeem(bound.token, { user: 'ADA@example.com' })).statusCode).toBe(201);

      const open = (await mint({ team: 'data', maxUses: 2 })).json();
      const anonymous = await redeem(open.token);
      expect(anonymous.statusCode).toBe(400);
      expect(anonymous.json().code).toBe('invalid_request');
      expect((await redeem(open.token, { user: 'not-an-address' })).statusCode).toBe(400);
      const grace = await redeem(open.token, { user: 'grace@example.com' });
      expect(grace.json()).toMatchObject({ user: 'grace@example.com', team: 'data', enrollment: { usesLeft: 1 } });

      // Two redemptions racing for the last use: exactly one key.
      const last = (await mint({ team: 'data', user: 'linus@example.com' })).json();
      const raced = await Promise.all([redeem(last.token), redeem(last.token), redeem(last.token)]);
      expect(raced.map((response) => response.statusCode).sort()).toEqual([201, 401, 401]);
    });

    it('refuses an unknown, expired or revoked token, and deletes a link for good with ?hard=true', async () => {
      const unknown = await redeem(`aen_${'x'.repeat(43)}`);
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toMatchObject({ code: 'enrollment_unknown' });

      const short = (await mint({ team: 'platform', user: 'ada@example.com', expiresInHours: 1 })).json();
      gateway.clock.advance(3_600_000);
      expect((await redeem(short.token)).json().code).toBe('enrollment_expired');

      const revoked = (await mint({ team: 'platform', user: 'ada@example.com' })).json();
      expect(
        (
          await gateway.app.inject({
            method: 'DELETE',
            url: `/admin/v1/enrollment/links/${revoked.link.id}`,
            headers: adminHeaders,
          })
        ).json(),
      ).toEqual({ ok: true });
      expect((await redeem(revoked.token)).json().code).toBe('enrollment_revoked');
      expect(
        (
          await gateway.app.inject({
            method: 'GET',
            url: `/admin/v1/enrollment/links/${revoked.link.id}`,
            headers: adminHeaders,
          })
        ).json(),
      ).toMatchObject({ status: 'revoked' });
      expect(
        (
          await gateway.app.inject({
            method: 'DELETE',
            url: `/admin/v1/enrollment/links/${revoked.link.id}?hard=true`,
            headers: adminHeaders,
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await gateway.app.inject({
            method: 'GET',
            url: `/admin/v1/enrollment/links/${revoked.link.id}`,
            headers: adminHeaders,
          })
        ).statusCode,
      ).toBe(404);

      // An enrollment token is only a credential at /connect/verify.
      const live = (await mint({ team: 'platform', user: 'ada@example.com' })).json();
      expect(
        (
          await gateway.app.inject({
            method: 'POST',
            url: '/connect/health',
            headers: bearer(live.token),
            payload: { checks: [] },
          })
        ).statusCode,
      ).toBe(401);
      expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(live.token) })).statusCode).toBe(
        401,
      );
    });

    it('never lets a self-declared address take an identity someone holds, nor mints for a blocked developer, and spends no use on a refusal', async () => {
      await mintClientKey(gateway.app, { user: 'Dave@Example.com', team: 'ops' });
      const open = (await mint({ team: 'eng', maxUses: 5 })).json();
      const taken = await redeem(open.token, { user: 'dave@example.com' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('enrollment_identity_taken');
      const control = await redeem(open.token, { user: 'n\u0000@example.com' });
      expect(control.statusCode).toBe(400);
      const fresh = await redeem(open.token, { user: 'New.Person@Example.com' });
      expect(fresh.json()).toMatchObject({ user: 'new.person@example.com', enrollment: { usesLeft: 4 } });

      await gateway.app.inject({
        method: 'POST',
        url: '/admin/v1/users/revoked',
        headers: adminHeaders,
        payload: { email: 'zed@example.com' },
      });
      const forZed = (await mint({ team: 'eng', user: 'zed@example.com' })).json();
      const blocked = await redeem(forZed.token);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().code).toBe('user_deactivated');
      expect(
        (
          await gateway.app.inject({
            method: 'GET',
            url: `/admin/v1/enrollment/links/${forZed.link.id}`,
            headers: adminHeaders,
          })
        ).json(),
      ).toMatchObject({ uses: 0, status: 'active' });
    });

    it('joins GDPR export and erase for links minted for a developer', async () => {
      const { token } = (await mint({ team: 'platform', user: 'ada@example.com' })).json();
      const exported = (
        await gateway.app.inject({
          method: 'GET',
          url: '/admin/v1/users/ada@example.com/export',
          headers: adminHeaders,
        })
      ).json();
      expect(exported.enrollmentLinks).toMatchObject([{ team: 'platform', uses: 0 }]);
      expect(JSON.stringify(exported)).not.toContain(token);
      expect(
        (
          await gateway.app.inject({
            method: 'DELETE',
            url: '/admin/v1/users/ada@example.com/data',
            headers: adminHeaders,
          })
        ).json().erased,
      ).toMatchObject({ enrollmentLinks: 1 });
    });

    it('refuses malformed links', async () => {
      for (const payload of [
        {},
        { team: '' },
        { team: 'x', expiresInHours: 0 },
        { team: 'x', expiresInHours: 721 },
        { team: 'x', maxUses: 0 },
        { team: 'x', user: 'nope' },
        { team: 'x', extra: 1 },
      ]) {
        expect((await mint(payload)).statusCode, JSON.stringify(payload)).toBe(400);
      }
    });
  },
);
