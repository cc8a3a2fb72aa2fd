import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Logger } from '@gw/platform';
import type { DeviceTokenStore } from '../seats/device-token.store.js';
import type { SeatStore } from '../seats/seat.store.js';
import type { SeatRef } from '../seats/seat.js';
import { deviceHealthOf, deviceHealthResponse } from './device-health.js';
import { renderDevicePage } from './device-page.js';

export interface DevicePluginOptions {
  seats: SeatStore;
  deviceTokens: DeviceTokenStore;
  logger: Logger;
}

const deviceQuery = z.looseObject({
  dt: z.string().max(128).optional().describe('The device token the connect CLI registered'),
});
const staticFailure = z.object({ status: z.literal('failure'), code: z.string(), message: z.string() });
// "unknown, expired or absent token gets a static 401": one answer, whatever was wrong.
const unauthorized = {
  status: 'failure',
  code: 'device_token_invalid',
  message: 'A valid device token is required.',
} as const;
const unavailable = {
  status: 'failure',
  code: 'device_unavailable',
  message: 'The device page is unavailable right now.',
} as const;
const tags = ['device'];

/**
 * The developer device page and its health rollup, gated by the short-lived device token alone: no
 * client key, no admin credential. The token is in the query, so answers are never cached or referred onward, and
 * the gateway's access lines leave the query out.
 */
export async function devicePlugin(app: FastifyInstance, options: DevicePluginOptions): Promise<void> {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  });

  const seatOfRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<SeatRef | null> => {
    const token = (request.query as { dt?: unknown }).dt;
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
      await reply.code(401).send(unauthorized);
      return null;
    }
    try {
      const ref = await options.deviceTokens.resolve(token);
      if (!ref) await reply.code(401).send(unauthorized);
      return ref;
    } catch (error) {
      options.logger.warn({ err: error }, 'device token lookup failed');
      await reply.code(503).send(unavailable);
      return null;
    }
  };
  /** The rollup, or null once a 503 was sent (the token was good, the seat store could not answer). */
  const healthOf = async (ref: SeatRef, reply: FastifyReply) => {
    try {
      return deviceHealthOf(ref, await options.seats.get(ref));
    } catch (error) {
      options.logger.warn({ err: error }, 'seat health read failed');
      await reply.code(503).send(unavailable);
      return null;
    }
  };

  app.get(
    '/device/health',
    {
      schema: {
        tags,
        summary: 'The seat’s health rollup: opaque user hash, per-check statuses, compliance score',
        querystring: deviceQuery,
        response: { 200: deviceHealthResponse, 401: staticFailure, 503: staticFailure },
      },
    },
    async (request, reply) => {
      const ref = await seatOfRequest(request, reply);
      const health = ref && (await healthOf(ref, reply));
      return health ?? reply;
    },
  );

  app.get(
    '/device',
    {
      schema: {
        tags,
        summary: 'The developer device page, opened with `?dt=<device token>`',
        description: 'An HTML page (no script) showing the seat’s compliance score and checks.',
        querystring: deviceQuery,
        response: { 401: staticFailure, 503: staticFailure },
      },
    },
    async (request, reply) => {
      const ref = await seatOfRequest(request, reply);
      const health = ref && (await healthOf(ref, reply));
      if (!health) return reply;
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        )
        .send(renderDevicePage(health));
    },
  );
}
