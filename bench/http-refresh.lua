-- wrk script for bench/http: POST /v1/auth/refresh, rotating each session's refresh token.
--
--   wrk -tTHREADS ... -s bench/http-refresh.lua URL -- REFRESH_TOKENS_FILE THREADS
--
-- REFRESH_TOKENS_FILE holds one refresh token a line, each of its own session. With N wrk
-- threads, thread n takes lines n+1, n+1+N, ... into a queue: request() sends the oldest and
-- response() queues the refresh token of the answer (each works once), so every request
-- presents a token not used before. Give each thread more tokens than its connections. A
-- request finding the queue empty (too many failed answers) sends a token no session has,
-- which fails and is counted.
--
-- At the end it prints one line for bench/http:
--   refreshes: <2xx> refreshed, <n> failed answers, <n> requests with no token left
local created = 0
local threads = {}

function setup(thread)
  thread:set("thread_index", created)
  created = created + 1
  table.insert(threads, thread)
end

local queue, first, last = {}, 1, 0
local headers = { ["Content-Type"] = "application/json" }
refreshed, failed, starved = 0, 0, 0

local function push(token)
  last = last + 1
  queue[last] = token
end

function init(args)
  local tokens_file, thread_count = args[1], tonumber(args[2])
  if tokens_file == nil or thread_count == nil then
    error("usage: -s bench/http-refresh.lua URL -- REFRESH_TOKENS_FILE THREADS")
  end
  local line_number = 0
  for line in io.lines(tokens_file) do
    if line_number % thread_count == thread_index and line:match("^%S+$") then push(line) end
    line_number = line_number + 1
  end
  if last == 0 then error("no refresh tokens for thread " .. thread_index .. " in " .. tokens_file) end
end

function request()
  local token
  if first <= last then
    token = queue[first]
    queue[first] = nil
    first = first + 1
  else
    starved = starved + 1
    token = "none"
  end
  return wrk.format("POST", "/v1/auth/refresh", headers, '{"refresh_token":"' .. token .. '"}')
end

function response(status, headers, body)
  local token = status == 200 and body:match('"refresh_token"%s*:%s*"([^"]+)"')
  if token then
    refreshed = refreshed + 1
    push(token)
  else
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local totals = { 0, 0, 0 }
  for _, thread in ipairs(threads) do
    totals[1] = totals[1] + thread:get("refreshed")
    totals[2] = totals[2] + thread:get("failed")
    totals[3] = totals[3] + thread:get("starved")
  end
  io.write(string.format("refreshes: %d refreshed, %d failed answers, %d requests with no token left\n",
    totals[1], totals[2], totals[3]))
end
