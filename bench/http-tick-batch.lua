-- wrk script for bench/logbook: POST /v1/me/ticks:batch with 10 outdoor ticks, each request by
-- the next member of TOKENS_FILE in turn and with client_tick_ids no request used before, so
-- every tick is new (the batch's idempotency check still runs for each).
--
--   wrk -tTHREADS ... -s bench/http-tick-batch.lua URL -- TOKENS_FILE THREADS

local created = 0

function setup(thread)
  thread:set("thread_index", created)
  created = created + 1
end

local tokens = {}
local position
local stride
local sent = 0

function init(args)
  local tokens_file, threads = args[1], tonumber(args[2])
  if tokens_file == nil or threads == nil then
    error("usage: -s bench/http-tick-batch.lua URL -- TOKENS_FILE THREADS")
  end
  for line in io.lines(tokens_file) do
    local token = line:match("^(%S+)")
    if token ~= nil then table.insert(tokens, token) end
  end
  if #tokens == 0 then error("no tokens in " .. tokens_file) end
  position = thread_index
  stride = threads
end

local grades = { "V0", "V1", "V2", "V3", "V4", "V5", "V3", "V2", "V4", "V1" }
local styles = { "send", "flash", "send", "attempt", "send", "repeat", "send", "flash", "send", "send" }

function request()
  local token = tokens[(position % #tokens) + 1]
  position = position + stride
  sent = sent + 1
  local ticks = {}
  for i = 1, 10 do
    ticks[i] = string.format(
      '{"client_tick_id":"w%d-%d-%d","grade":"%s","grade_scale":"v","style":"%s","route_name":"Bench problem %d","crag":"Bench crag"}',
      thread_index, sent, i, grades[i], styles[i], i)
  end
  local body = '{"ticks":[' .. table.concat(ticks, ",") .. ']}'
  return wrk.format("POST", "/v1/me/ticks:batch",
    { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end
