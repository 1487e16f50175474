-- stackbench's wrk script: the request to send, and a JSON summary written when the run ends.
-- WrkDriver copies it into the phase's output folder and replaces the line marked @@CONFIG@@ with
-- the phase's settings; as it is here it is valid Lua with defaults (a GET, no per-second series).
--
-- wrk runs this file once in a setup/done state (setup(), done()) and once in each thread's own
-- state (init(), response()); globals do not cross states except through thread:get/thread:set.

local sb = {
   output     = "stackbench-wrk.json", -- where done() writes the summary
   method     = "GET",
   body       = nil,                   -- request body, or nil
   headers    = {},                    -- extra request headers
   per_second = false,                 -- count answers per second and per status (response() hook)
   expected   = 200,                   -- the status of a successful answer
   traffic    = nil,                   -- fed or mixed requests (below), or nil for the one request above
}
-- @@CONFIG@@

wrk.method = sb.method
wrk.body = sb.body
for name, value in pairs(sb.headers) do
   wrk.headers[name] = value
end

-- A wall clock in microseconds (LuaJIT's FFI: os.time() counts whole seconds only).
local ffi = require("ffi")
ffi.cdef [[
   typedef struct { long tv_sec; long tv_usec; } sb_timeval;
   int gettimeofday(sb_timeval *tv, void *tz);
]]
local tv = ffi.new("sb_timeval")
local function now_us()
   ffi.C.gettimeofday(tv, nil)
   return tonumber(tv.tv_sec) * 1000000 + tonumber(tv.tv_usec)
end

-- setup/done state: the threads, and the time the first thread was set up (the series' second 0).
local threads = {}
local t0 = nil

function setup(thread)
   if t0 == nil then
      t0 = now_us()
   end
   thread:set("sb_t0", t0)
   threads[#threads + 1] = thread
   thread:set("sb_id", #threads)
end

-- thread state: answers per second (since sb_t0), successes per second, answers per status.
sb_t0 = nil
sb_answers = {}
sb_successes = {}
sb_statuses = {}

-- Fed and mixed requests (sb.traffic): each request built from its parts, strings as they are and {feed, column}
-- pairs filled from a row of the feed drawn per request (one row per feed for all of a request's placeholders).
-- A mix picks a request by weight. sb.traffic = { mixed, threads, duration_us, timeout_us, feeds = {{pick, rows}},
-- requests = {{index, name, method, weight, expected, path = parts, body = parts or nil, headers = {{name, parts}}}} }
local traffic = sb.traffic
local named = traffic ~= nil and traffic.mixed
sb_id = 1
sb_pending = nil -- the mix's request this thread's one connection sent last: a mix runs one connection a thread
sb_sent = 0
sb_start = nil
sb_dump = ""     -- this thread's per-request figures, one string: done() reads it with thread:get (never a table)

if traffic then
   local feeds, reqs = traffic.feeds, traffic.requests
   local total = 0
   for _, r in ipairs(reqs) do
      total = total + r.weight
   end
   local cursor, drawn = {}, {}
   local function draw(f)
      local feed = feeds[f]
      local n = #feed.rows
      if feed.pick == "random" then
         return math.random(n)
      end
      -- sequential: each thread walks the rows from its own offset, so the threads do not send the same values at once
      local c = (cursor[f] or ((sb_id - 1) * math.floor(n / traffic.threads))) % n + 1
      cursor[f] = c
      return c
   end
   local function text(parts)
      if parts == nil then
         return nil
      end
      local out = {}
      for i, p in ipairs(parts) do
         if type(p) == "string" then
            out[i] = p
         else
            local row = drawn[p[1]]
            if row == nil then
               row = draw(p[1])
               drawn[p[1]] = row
            end
            out[i] = feeds[p[1]].rows[row][p[2]]
         end
      end
      return table.concat(out)
   end
   function init(args)
      math.randomseed(now_us() + 7919 * sb_id)
      for _, r in ipairs(reqs) do
         r.host = wrk.headers["Host"]
      end
   end
   function request()
      local r = reqs[#reqs]
      if #reqs > 1 then
         local pick = math.random() * total
         for _, q in ipairs(reqs) do
            if pick < q.weight then
               r = q
               break
            end
            pick = pick - q.weight
         end
      end
      drawn = {}
      local headers = { Host = r.host }
      for _, h in ipairs(r.headers) do
         headers[h[1]] = text(h[2])
      end
      sb_pending = r.index
      sb_sent = now_us()
      if sb_start == nil then
         sb_start = sb_sent
      end
      return wrk.format(r.method, text(r.path), headers, text(r.body))
   end
end

-- Per-request figures of a mix, in this thread: answers, successes, late answers, latency (µs, from request() to
-- response(): raw, not corrected for coordinated omission) in buckets 2 % wide (floor(ln(us) * 50)), per status.
local stats = {}
local dump_at = 0
local BUCKETS = 50

local function dump()
   local lines = {}
   for i, s in pairs(stats) do
      local st, bk = {}, {}
      for k, v in pairs(s.statuses) do
         st[#st + 1] = k .. ":" .. v
      end
      for k, v in pairs(s.buckets) do
         bk[#bk + 1] = k .. ":" .. v
      end
      lines[#lines + 1] = table.concat({ i, s.n, s.ok, s.late, s.min, s.max, string.format("%.0f", s.sum),
         #st > 0 and table.concat(st, ",") or "-", #bk > 0 and table.concat(bk, ",") or "-" }, " ")
   end
   sb_dump = table.concat(lines, "\n")
end

local function record(status, now)
   local i = sb_pending
   if i == nil then
      return
   end
   sb_pending = nil
   local us = now - sb_sent
   local s = stats[i]
   if s == nil then
      s = { n = 0, ok = 0, late = 0, min = -1, max = 0, sum = 0, statuses = {}, buckets = {} }
      stats[i] = s
   end
   s.n = s.n + 1
   s.statuses[status] = (s.statuses[status] or 0) + 1
   if us > traffic.timeout_us then
      s.late = s.late + 1
   else
      if status == traffic.requests[i].expected then
         s.ok = s.ok + 1
      end
      if s.min < 0 or us < s.min then
         s.min = us
      end
      if us > s.max then
         s.max = us
      end
      s.sum = s.sum + us
      local b = math.floor(math.log(us < 1 and 1 or us) * BUCKETS)
      s.buckets[b] = (s.buckets[b] or 0) + 1
   end
   -- the dump every 100 ms, and after every answer of the run's last 200 ms: the thread stops with no hook of its own
   if now >= dump_at or now >= sb_start + traffic.duration_us - 200000 then
      dump()
      dump_at = now + 100000
   end
end

if sb.per_second or named then
   -- Defining response() makes wrk collect each answer's headers and body for it: the cost of the series.
   local floor = math.floor
   local expected = sb.expected
   local per_second = sb.per_second
   function response(status, headers, body)
      local now = now_us()
      if per_second then
         local s = floor((now - sb_t0) / 1000000)
         sb_answers[s] = (sb_answers[s] or 0) + 1
         -- a mix's answer succeeds with its own request's status
         if status == (named and sb_pending and traffic.requests[sb_pending].expected or expected) then
            sb_successes[s] = (sb_successes[s] or 0) + 1
         end
         sb_statuses[status] = (sb_statuses[status] or 0) + 1
      end
      if named then
         record(status, now)
      end
   end
end

local function num(x)
   if x == nil or x ~= x or x == math.huge or x == -math.huge then
      return "null"
   end
   if x == math.floor(x) and math.abs(x) < 2 ^ 53 then
      return string.format("%d", x)
   end
   return string.format("%.3f", x)
end

local function str(s)
   return '"' .. s:gsub('[%c"\\]', function(c)
      return string.format("\\u%04x", string.byte(c))
   end) .. '"'
end

local function merge(into, from)
   for k, v in pairs(from or {}) do
      into[k] = (into[k] or 0) + v
   end
end

local function object(t)
   local keys = {}
   for k in pairs(t) do
      keys[#keys + 1] = k
   end
   table.sort(keys)
   local out = {}
   for _, k in ipairs(keys) do
      out[#out + 1] = str(tostring(k)) .. ": " .. num(t[k])
   end
   return "{" .. table.concat(out, ", ") .. "}"
end

local PERCENTILES = { 50, 75, 90, 99, 99.9, 99.99 }
local SPECTRUM = { 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999 }

function done(summary, latency, requests)
   local e = summary.errors
   local out = {}
   local function add(line)
      out[#out + 1] = line
   end
   -- latency.min is UINT64_MAX and max 0 when no latency was recorded (every answer late, or none).
   local recorded = latency.max > 0 and latency.min <= latency.max
   add("{")
   add('  "tool": "wrk",')
   add('  "durationUs": ' .. num(summary.duration) .. ",")
   add('  "requests": ' .. num(summary.requests) .. ",")
   add('  "bytes": ' .. num(summary.bytes) .. ",")
   add('  "errors": {"connect": ' .. num(e.connect) .. ', "read": ' .. num(e.read) .. ', "write": ' .. num(e.write)
      .. ', "status": ' .. num(e.status) .. ', "timeout": ' .. num(e.timeout) .. "},")
   if recorded then
      local p = {}
      for _, q in ipairs(PERCENTILES) do
         p[#p + 1] = str(tostring(q)) .. ": " .. num(latency:percentile(q))
      end
      add('  "latencyUs": {"min": ' .. num(latency.min) .. ', "mean": ' .. num(latency.mean) .. ', "stdev": '
         .. num(latency.stdev) .. ', "max": ' .. num(latency.max) .. ', "percentiles": {' .. table.concat(p, ", ") .. "}},")
      local s = {}
      for _, q in ipairs(SPECTRUM) do
         s[#s + 1] = "[" .. tostring(q) .. ", " .. num(latency:percentile(q)) .. "]"
      end
      s[#s + 1] = "[100, " .. num(latency.max) .. "]" -- latency:percentile(100) answers 0 (its rank is count + 1)
      add('  "spectrumUs": [' .. table.concat(s, ", ") .. "],")
   else
      add('  "latencyUs": null,')
      add('  "spectrumUs": [],')
   end
   add('  "threadRate": {"mean": ' .. num(requests.mean) .. ', "stdev": ' .. num(requests.stdev) .. ', "max": '
      .. num(requests.max) .. "},")
   add('  "threads": ' .. num(#threads) .. ",")
   if sb.per_second then
      local answers, successes, statuses = {}, {}, {}
      for _, thread in ipairs(threads) do
         merge(answers, thread:get("sb_answers"))
         merge(successes, thread:get("sb_successes"))
         merge(statuses, thread:get("sb_statuses"))
      end
      local last = -1
      for k in pairs(answers) do
         if k > last then last = k end
      end
      local seconds = {}
      for k = 0, last do
         seconds[#seconds + 1] = "[" .. k .. ", " .. num(answers[k] or 0) .. ", " .. num(successes[k] or 0) .. "]"
      end
      add('  "expectedStatus": ' .. num(sb.expected) .. ",")
      add('  "statusCodes": ' .. object(statuses) .. ",")
      add('  "perSecond": [' .. table.concat(seconds, ", ") .. "],")
   else
      add('  "expectedStatus": ' .. num(sb.expected) .. ",")
      add('  "statusCodes": null,')
      add('  "perSecond": null,')
   end
   if named then
      local dumps = {}
      for _, thread in ipairs(threads) do
         dumps[#dumps + 1] = str(thread:get("sb_dump") or "")
      end
      add('  "named": [' .. table.concat(dumps, ", ") .. "],")
   end
   add('  "doneAfterStartUs": ' .. num(now_us() - t0))
   add("}")
   local f = assert(io.open(sb.output, "w"))
   f:write(table.concat(out, "\n"), "\n")
   f:close()
end
