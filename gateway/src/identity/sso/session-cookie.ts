import type { FastifyReply, FastifyRequest } from 'fastify';
import { hmacSha256Hex, timingSafeEqualString } from '@gw/platform';

/**
 * The console's cookies (docs/adr/0026-console-sessions.md). Behind TLS the names carry the `__Host-` prefix, which a
 * browser accepts only with `Secure`, `Path=/` and no `Domain`: no sibling host can plant or shadow them.
 */
export interface CookieNames {
  session: string;
  csrf: string;
  flow: string;
}

export const cookieNames = (secure: boolean): CookieNames =>
  secure
    ? { session: '__Host-gw_console', csrf: '__Host-gw_console_csrf', flow: '__Host-gw_sso_flow' }
    : { session: 'gw_console', csrf: 'gw_console_csrf', flow: 'gw_sso_flow' };

/** Secure when the gateway is reached over TLS (directly, or as a trusted proxy says) or its public URL is https. */
export function isSecureRequest(request: FastifyRequest, publicUrl: string | undefined): boolean {
  return request.protocol === 'https' || (publicUrl?.startsWith('https:') ?? false);
}

export function readCookies(request: FastifyRequest): Map<string, string> {
  const cookies = new Map<string, string>();
  const header = request.headers.cookie;
  if (typeof header !== 'string') return cookies;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    // The first value of a name wins, as browsers send the most specific path first.
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/** A console cookie, from either spelling (a gateway moved behind TLS still recognises, and replaces, the old one). */
export function readConsoleCookie(request: FastifyRequest, kind: keyof CookieNames): string | null {
  const cookies = readCookies(request);
  return cookies.get(cookieNames(true)[kind]) ?? cookies.get(cookieNames(false)[kind]) ?? null;
}

export interface CookieOptions {
  secure: boolean;
  httpOnly: boolean;
  maxAgeSeconds: number;
}

function serialize(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'SameSite=Lax',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Append Set-Cookie headers (fastify keeps every value of a repeated header). */
export function setCookies(reply: FastifyReply, cookies: ReadonlyArray<[name: string, value: string, CookieOptions]>) {
  const existing = reply.getHeader('set-cookie');
  const previous = Array.isArray(existing) ? existing : typeof existing === 'string' ? [existing] : [];
  reply.header('set-cookie', [
    ...previous,
    ...cookies.map(([name, value, options]) => serialize(name, value, options)),
  ]);
}

/** Expire every console cookie, under both spellings. */
export function clearConsoleCookies(reply: FastifyReply, kinds: ReadonlyArray<keyof CookieNames>): void {
  const cleared: Array<[string, string, CookieOptions]> = [];
  for (const secure of [true, false])
    for (const kind of kinds)
      cleared.push([cookieNames(secure)[kind], '', { secure, httpOnly: true, maxAgeSeconds: 0 }]);
  setCookies(reply, cleared);
}

/**
 * The session cookie's value binds the token to this deployment: `<token>.<HMAC(secret, deployment.token)>`. A cookie
 * minted by another deployment (another secret or another deployment id) fails the check before any lookup.
 */
export function bindToken(token: string, binding: { secret: string; deployment: string }): string {
  return `${token}.${hmacSha256Hex(binding.secret, `${binding.deployment}.${token}`)}`;
}

/** The token of a bound cookie value, or null when the value was not minted by this deployment. */
export function unbindToken(value: string, binding: { secret: string; deployment: string }): string | null {
  const at = value.lastIndexOf('.');
  if (at <= 0) return null;
  const token = value.slice(0, at);
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return null;
  return timingSafeEqualString(value, bindToken(token, binding)) ? token : null;
}
