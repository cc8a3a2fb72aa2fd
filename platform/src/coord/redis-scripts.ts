import { LuaScript } from './lua-script.js';

/*
 * Every script that measures time reads the Redis server's clock (TIME), so replicas whose own clocks disagree
 * still agree on windows and leases. Needs Redis >= 5 (effects replication makes TIME legal before writes).
 * Times are whole milliseconds. An admission at t counts while now < t + window; a lease is held while
 * now < expiry — the same rules as the in-process implementation.
 */
const serverNow = `local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)`;

/**
 * KEYS counters; ARGV delta and ttlMs (0 = none) for each in turn; the new values in order. Expiry only when a key
 * has none, so a window never slides.
 */
export const incrementScript = new LuaScript(`
local values = {}
for index, key in ipairs(KEYS) do
  values[index] = redis.call('INCRBYFLOAT', key, ARGV[index * 2 - 1])
  local ttl = tonumber(ARGV[index * 2])
  if ttl > 0 and redis.call('PTTL', key) == -1 then
    redis.call('PEXPIRE', key, ttl)
  end
end
return values`);

/**
 * KEYS[1] sorted set of admissions scored by time; ARGV limit, windowMs, unique member.
 * Returns {allowed 0|1, count, retryAfterMs}. When denied, the admission at rank count - limit must leave before
 * one is free (the oldest when exactly full); with none (limit <= 0) the hint is a whole window.
 */
export const rateLimitScript = new LuaScript(`
${serverNow}
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, count + 1, 0}
end
local retry = window
if limit > 0 then
  local blocking = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  if blocking[2] then retry = math.max(1, tonumber(blocking[2]) + window - now) end
end
return {0, count, retry}`);

/** Keeps the semaphore key alive exactly as long as its longest lease. */
const expireWithLongestLease = `local longest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if longest[2] then redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(longest[2]) - now)) end`;

/** KEYS[1] sorted set of lease ids scored by expiry; ARGV limit, leaseMs, lease id. Returns 1 when acquired. */
export const acquireSlotScript = new LuaScript(`
${serverNow}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
${expireWithLongestLease}
return 1`);

/**
 * KEYS[1] semaphore; ARGV leaseMs, lease id. Extends a live lease only (ZADD XX): an expired lease is swept first
 * and stays lost, since its slot may already belong to someone else. Returns 1 when renewed.
 */
export const renewSlotScript = new LuaScript(`
${serverNow}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) == false then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
${expireWithLongestLease}
return 1`);
