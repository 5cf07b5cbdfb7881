-- The loopback ceiling: wrk POSTs the same signed template send Pushline makes, over and over, on keep-alive
-- connections. bench/run.sh fills these from the environment.
wrk.method = "POST"
wrk.path = os.getenv("BENCH_PATH")
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Authorization"] = os.getenv("BENCH_AUTH")
wrk.headers["Content-Type"] = "application/json;charset=utf-8"
wrk.headers["ServiceBusNotification-Format"] = "template"
wrk.headers["ServiceBusNotification-Tags"] = os.getenv("BENCH_TAGS")
