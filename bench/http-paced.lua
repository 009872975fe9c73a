-- wrk script for bench/http: one of its other wrk scripts at a set rate instead of as fast as
-- the server answers, for the latency at the rate a target names.
--
--   PACED_SCRIPT=bench/http-refresh.lua wrk -cCONNECTIONS ... -s bench/http-paced.lua URL -- ARGS... INTERVAL_MS
--
-- The named script runs as it is, with its own arguments; after each answer a connection
-- waits INTERVAL_MS (the named script's argument after its own) before its next request, so
-- CONNECTIONS connections offer about CONNECTIONS x 1000 / INTERVAL_MS requests per second.
-- wrk decides whether a script paces when it loads it, so pacing lives in this file rather
-- than behind an argument of the named one.
dofile(os.getenv("PACED_SCRIPT") or error("PACED_SCRIPT names the wrk script to pace"))

function delay()
  return interval_ms
end
