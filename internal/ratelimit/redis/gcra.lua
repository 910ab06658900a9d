-- One GCRA step for one key, atomically. Mirrors ratelimit.GCRA in Go; the
-- shared conformance suite holds both to the same results.
-- Times are integer microseconds, exact in Lua's doubles below 2^53. "now"
-- comes from the caller's clock rather than Redis TIME so that tests can
-- drive it; instances sharing a Redis therefore need synchronised clocks.
-- KEYS[1]: the key's theoretical arrival time (TAT).
-- ARGV: now, emission interval, rate (burst size).
-- Returns {allowed (0/1), remaining, retry_after, reset_after}.
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local window = interval * tonumber(ARGV[3])

-- A missing (or unreadable) TAT means a full burst.
local tat = tonumber(redis.call("GET", KEYS[1])) or now
if tat < now then
  tat = now
end
local new_tat = tat + interval
if new_tat - now > window then
  return {0, 0, new_tat - window - now, tat - now}
end
-- The TAT is worthless once the key is back at a full burst, so it expires
-- then. Numbers passed to redis.call are formatted exactly (%.17g).
redis.call("SET", KEYS[1], new_tat, "PX", math.ceil((new_tat - now) / 1000))
return {1, math.floor((now + window - new_tat) / interval), 0, new_tat - now}
