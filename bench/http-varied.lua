-- wrk script for bench/http: a search whose query string differs on every request, so that the
-- answers come from the database and not from the response cache (a list is kept for a second
-- by its exact query string).
--
--   wrk ... -s bench/http-varied.lua URL -- "near|LAT,LON|REST" THREADS
--       /v1/meetups?near=LAT',LON'&REST, LAT' and LON' within about 2 km of LAT,LON
--   wrk ... -s bench/http-varied.lua URL -- "from|YYYY-MM-DD|REST" THREADS
--       /v1/meetups?REST&from=DAY&limit=N, DAY one of the 365 days from YYYY-MM-DD and N 10-50
--
-- THREADS is taken for bench/http-paced.lua's sake (PACED_SCRIPT=bench/http-varied.lua) and
-- not used here. The run's -H headers go with every request.
local mode, first, rest
local counter = 0

function init(args)
  local spec = args[1] or error("usage: -s bench/http-varied.lua URL -- \"near|LAT,LON|REST\" or \"from|YYYY-MM-DD|REST\" THREADS")
  mode, first, rest = spec:match("^(%a+)|([^|]+)|(.*)$")
  if mode ~= "near" and mode ~= "from" then error("bench/http-varied.lua: near|… or from|…, got " .. spec) end
  if mode == "near" then
    local lat, lon = first:match("^([^,]+),(.+)$")
    first = { tonumber(lat), tonumber(lon) }
  else
    local y, m, d = first:match("^(%d+)-(%d+)-(%d+)$")
    first = os.time({ year = tonumber(y), month = tonumber(m), day = tonumber(d), hour = 12 })
  end
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0))
end

function request()
  counter = counter + 1
  if mode == "near" then
    local dlat = (math.random(-20000, 20000) + counter % 7) / 1000000
    local dlon = (math.random(-20000, 20000) + counter % 11) / 1000000
    return wrk.format("GET", string.format("/v1/meetups?near=%.6f,%.6f&%s", first[1] + dlat, first[2] + dlon, rest))
  end
  local day = os.date("!%Y-%m-%d", first + math.random(0, 364) * 86400)
  return wrk.format("GET", string.format("/v1/meetups?%s&from=%s&limit=%d", rest, day, math.random(10, 50)))
end
