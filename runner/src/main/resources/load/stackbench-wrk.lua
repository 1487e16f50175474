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
end

-- thread state: answers per second (since sb_t0), successes per second, answers per status.
sb_t0 = nil
sb_answers = {}
sb_successes = {}
sb_statuses = {}

if sb.per_second then
   -- Defining response() makes wrk collect each answer's headers and body for it: the cost of the series.
   local floor = math.floor
   local expected = sb.expected
   function response(status, headers, body)
      local s = floor((now_us() - sb_t0) / 1000000)
      sb_answers[s] = (sb_answers[s] or 0) + 1
      if status == expected then
         sb_successes[s] = (sb_successes[s] or 0) + 1
      end
      sb_statuses[status] = (sb_statuses[status] or 0) + 1
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
   add('  "doneAfterStartUs": ' .. num(now_us() - t0))
   add("}")
   local f = assert(io.open(sb.output, "w"))
   f:write(table.concat(out, "\n"), "\n")
   f:close()
end
