-- wrk script for bench/http: the console door list's check-in form, POST
-- /console/meetups/{id}/check-in as a browser without script sends it (the answer is a 303 back
-- to the door list), each request for a different member, by the host signed in to the console.
--
--   wrk -tTHREADS ... -s bench/http-console-check-in.lua URL -- MEMBERS_FILE THREADS COOKIE FORM_TOKEN
--
-- MEMBERS_FILE holds one line per member who is `going`: "<meetup id> <user id>". COOKIE is the
-- whole `Cookie` header (`belay_console=...`) and FORM_TOKEN the session's `csrf` field, as
-- `belay dev seed-bench --console-meetups` prints them. With N wrk threads, thread n uses lines
-- n+1, n+1+N, n+1+2N, ... so no two requests share a member until the list runs out; after that
-- members repeat (already checked in: the same 303). THREADS must equal wrk's -t.

local created = 0

function setup(thread)
  thread:set("thread_index", created)
  created = created + 1
end

local members = {}
local position
local stride
local request_headers

function init(args)
  local members_file, threads, cookie, form_token = args[1], tonumber(args[2]), args[3], args[4]
  if members_file == nil or threads == nil or cookie == nil or form_token == nil then
    error("usage: -s bench/http-console-check-in.lua URL -- MEMBERS_FILE THREADS COOKIE FORM_TOKEN")
  end
  request_headers = { ["Cookie"] = cookie, ["Content-Type"] = "application/x-www-form-urlencoded" }
  for line in io.lines(members_file) do
    local meetup, user = line:match("^(%d+)%s+(%d+)$")
    if meetup ~= nil then
      table.insert(members, {
        path = "/console/meetups/" .. meetup .. "/check-in",
        body = "csrf=" .. form_token .. "&user_id=" .. user,
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
  return wrk.format("POST", member.path, request_headers, member.body)
end
