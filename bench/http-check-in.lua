-- wrk script for bench/http: POST /v1/meetups/{id}/check-in, each request by a different member.
--
--   wrk -tTHREADS ... -s bench/http-check-in.lua URL -- MEMBERS_FILE THREADS
--
-- MEMBERS_FILE holds one line per member who is `going`: "<bearer token> <meetup id> <code>",
-- the code being that meetup's current check-in code. With N wrk threads, thread n uses lines
-- n+1, n+1+N, n+1+2N, ... so no two requests share a member until the list runs out; after that
-- members repeat, which exercises the idempotent path (200, not 201). THREADS must equal wrk's -t
-- (wrk gives a script no other way to learn it).

local created = 0

function setup(thread)
  thread:set("thread_index", created)
  created = created + 1
end

local members = {}
local position
local stride

function init(args)
  local members_file, threads = args[1], tonumber(args[2])
  if members_file == nil or threads == nil then
    error("usage: -s bench/http-check-in.lua URL -- MEMBERS_FILE THREADS")
  end
  for line in io.lines(members_file) do
    local token, meetup, code = line:match("^(%S+)%s+(%d+)%s+(%d+)$")
    if token ~= nil then
      table.insert(members, {
        path = "/v1/meetups/" .. meetup .. "/check-in",
        headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" },
        body = '{"code":"' .. code .. '"}',
      })
    end
  end
  if #members == 0 then error("no members in " .. members_file) end
  position = thread_index
  stride = threads
end

function request()
  local member = members[(position % #members) + 1]
  position = position + stride
  return wrk.format("POST", member.path, member.headers, member.body)
end
