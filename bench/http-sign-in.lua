-- wrk script for bench/http: POST /v1/auth/apple, each request with its own Apple identity token.
--
--   wrk -tTHREADS ... -s bench/http-sign-in.lua URL -- TOKENS_FILE THREADS
--
-- TOKENS_FILE holds one line per token: "<identity token> <raw nonce>" (bench/apple-identity.py
-- sign). With N wrk threads, thread n sends lines n+1, n+1+N, n+1+2N, ... Each token signs in
-- once: when a thread has sent all of its own it starts them again, and those answers are
-- 401 token_already_used, counted apart. THREADS must equal wrk's -t.
--
-- At the end it prints one line for bench/http:
--   sign-ins: <2xx> signed in, <n> token_already_used, <n> other answers, <n> tokens
local created = 0
local threads = {}

function setup(thread)
  thread:set("thread_index", created)
  created = created + 1
  table.insert(threads, thread)
end

local requests = {}
local position = 1
signed_in, already_used, other = 0, 0, 0

function init(args)
  local tokens_file, thread_count = args[1], tonumber(args[2])
  if tokens_file == nil or thread_count == nil then
    error("usage: -s bench/http-sign-in.lua URL -- TOKENS_FILE THREADS")
  end
  local headers = { ["Content-Type"] = "application/json" }
  local line_number = 0
  for line in io.lines(tokens_file) do
    if line_number % thread_count == thread_index then
      local token, nonce = line:match("^(%S+)%s+(%S+)$")
      if token ~= nil then
        table.insert(requests, wrk.format("POST", "/v1/auth/apple", headers,
          '{"identity_token":"' .. token .. '","nonce":"' .. nonce .. '"}'))
      end
    end
    line_number = line_number + 1
  end
  if #requests == 0 then error("no tokens for thread " .. thread_index .. " in " .. tokens_file) end
end

function request()
  local next = requests[position]
  position = position % #requests + 1
  return next
end

function response(status, headers, body)
  if status >= 200 and status < 300 then
    signed_in = signed_in + 1
  elseif status == 401 and body:find("token_already_used", 1, true) then
    already_used = already_used + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local totals = { 0, 0, 0 }
  for _, thread in ipairs(threads) do
    totals[1] = totals[1] + thread:get("signed_in")
    totals[2] = totals[2] + thread:get("already_used")
    totals[3] = totals[3] + thread:get("other")
  end
  io.write(string.format("sign-ins: %d signed in, %d token_already_used, %d other answers\n",
    totals[1], totals[2], totals[3]))
end
