-- wrk script for bench/http: POST /v1/meetups/{id}/check-in, each request by a different member.
--
--   wrk -tTHREADS ... -s bench/http-check-in.lua URL -- TOKENS_FILE MEETUP_ID CODE THREADS
--
-- TOKENS_FILE holds one member bearer token per line (members who are `going`). With N wrk
-- threads, thread n uses tokens n+1, n+1+N, n+1+2N, ... so no two requests share a member until
-- the list runs out; after that members repeat, which exercises the idempotent path (200, not 201).
-- THREADS must equal wrk's -t (wrk gives a script no other way to learn it).

local created = 0

function setup(thread)
  thread:set("thread_index", created)
  created = created + 1
end

local tokens = {}
local position
local stride
local path
local body

function init(args)
  local tokens_file, meetup_id, code, threads = args[1], args[2], args[3], tonumber(args[4])
  if tokens_file == nil or meetup_id == nil or code == nil or threads == nil then
    error("usage: -s bench/http-check-in.lua URL -- TOKENS_FILE MEETUP_ID CODE THREADS")
  end
  for line in io.lines(tokens_file) do
    if line ~= "" then table.insert(tokens, line) end
  end
  if #tokens == 0 then error("no tokens in " .. tokens_file) end
  path = "/v1/meetups/" .. meetup_id .. "/check-in"
  body = '{"code":"' .. code .. '"}'
  position = thread_index
  stride = threads
end

function request()
  local token = tokens[(position % #tokens) + 1]
  position = position + stride
  return wrk.format("POST", path, {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
  }, body)
end
