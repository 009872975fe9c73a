-- wrk script for bench/http: a search whose query string differs from one request to the next,
-- so that the answers come from the search and not from a response cache (a list is kept for a
-- second by its exact query string).
--
--   wrk ... -s bench/http-varied.lua URL -- "near|LAT,LON|REST" THREADS
--       /v1/meetups?near=LAT',LON'&REST, LAT' and LON' within about 2 km of LAT,LON
--   wrk ... -s bench/http-varied.lua URL -- "from|YYYY-MM-DD|REST" THREADS
--       /v1/meetups?REST&from=DAY&limit=N, DAY one of the 365 days from YYYY-MM-DD and N 10-50
--
-- Each thread writes 20,000 distinct requests when it starts and sends them in turn: wrk's own
-- advice, since building a request in Lua for every send costs the client more CPU than the
-- server spends on a small answer, and here both share the machine. At the rates measured a
-- thread comes back to a request after several seconds, past the response cache's second.
-- THREADS is taken for bench/http-paced.lua's sake (PACED_SCRIPT=bench/http-varied.lua) and
-- not used here. The run's -H headers go with every request.
local requests = {}
local count = 20000
local next_index = 0

function init(args)
  local spec = args[1] or error("usage: -s bench/http-varied.lua URL -- \"near|LAT,LON|REST\" or \"from|YYYY-MM-DD|REST\" THREADS")
  local mode, first, rest = spec:match("^(%a+)|([^|]+)|(.*)$")
  if mode ~= "near" and mode ~= "from" then error("bench/http-varied.lua: near|… or from|…, got " .. spec) end
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0))
  if mode == "near" then
    local lat, lon = first:match("^([^,]+),(.+)$")
    lat, lon = tonumber(lat), tonumber(lon)
    for i = 1, count do
      local dlat = (math.random(-20000, 20000) + i % 7) / 1000000
      local dlon = (math.random(-20000, 20000) + i % 11) / 1000000
      requests[i] = wrk.format("GET", string.format("/v1/meetups?near=%.6f,%.6f&%s", lat + dlat, lon + dlon, rest))
    end
  else
    local y, m, d = first:match("^(%d+)-(%d+)-(%d+)$")
    local start = os.time({ year = tonumber(y), month = tonumber(m), day = tonumber(d), hour = 12 })
    for i = 1, count do
      local day = os.date("!%Y-%m-%d", start + math.random(0, 364) * 86400)
      requests[i] = wrk.format("GET", string.format("/v1/meetups?%s&from=%s&limit=%d", rest, day, math.random(10, 50)))
    end
  end
end

function request()
  next_index = next_index % count + 1
  return requests[next_index]
end
