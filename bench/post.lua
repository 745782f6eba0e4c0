-- post.lua: makes wrk send what rpcbench sends: POST of one fixed body with
-- the same Content-Type and User-Agent (wrk adds Host and Content-Length).
-- usage: wrk -s bench/post.lua URL -- BODY_FILE CONTENT_TYPE
-- At the end prints one line for bench/bench.py:
--   wrk-summary requests=N duration_us=N errors=N non2xx=N p99_us=X
-- (wrk2's latency is its corrected histogram: from the intended send time)

function init(args)
   local f = assert(io.open(args[1], "rb"))
   wrk.body = f:read("*a")
   f:close()
   wrk.method = "POST"
   wrk.headers["Content-Type"] = args[2]
   wrk.headers["User-Agent"] = "rpcbench"
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format("wrk-summary requests=%d duration_us=%d errors=%d non2xx=%d p99_us=%g\n",
      summary.requests, summary.duration,
      e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(99)))
end
