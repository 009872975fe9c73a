-- wrk script for bench/http: one of its other wrk scripts at a set rate instead of as fast as
-- the server answers, for the latency at the rate a target names.
--
--   PACED_SCRIPT=bench/http-refresh.lua wrk -tTHREADS ... -s bench/http-paced.lua URL -- FILE THREADS RATE
--
-- The named script runs as it is, with its own two arguments; RATE is the requests per second
-- the whole run offers. Each wrk thread hands out send times one after another, THREADS x 1000 /
-- RATE ms apart, to whichever of its connections is ready next, so the requests go out evenly
-- at RATE while the server keeps up, each on a connection free at that moment. A thread that
-- falls behind starts again from now rather than sending the missed ones in a burst, so a
-- server slower than RATE is seen as an answered rate below it. wrk decides whether a script
-- paces when it loads it, which is why pacing lives in a script of its own.
dofile(os.getenv("PACED_SCRIPT") or error("PACED_SCRIPT names the wrk script to pace"))

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } paced_timespec;
  int clock_gettime(int clock_id, paced_timespec *time);
]]
local clock_monotonic = 1
local reading = ffi.new("paced_timespec")
local function now_ms()
  ffi.C.clock_gettime(clock_monotonic, reading)
  return tonumber(reading.tv_sec) * 1000 + tonumber(reading.tv_nsec) / 1e6
end

local named_init = init
local slot_ms, next_send = nil, nil

function init(args)
  named_init(args)
  local threads, rate = tonumber(args[2]), tonumber(args[3])
  if threads == nil or rate == nil or rate <= 0 then
    error("usage: -s bench/http-paced.lua URL -- FILE THREADS RATE (with PACED_SCRIPT set)")
  end
  slot_ms = threads * 1000 / rate
end

function delay()
  local now = now_ms()
  if next_send == nil or next_send < now then next_send = now end
  local wait = next_send - now
  next_send = next_send + slot_ms
  return math.floor(wait)
end
