"""Benchmark fixtures and probes for a running `pushline emulator`, over its REST API and side channel.

    hub.py users CONNECTION HUB N            PUT N installations (bench-user-I, userId user-I, template 'digest')
    hub.py rows PATH N                       write the for-each rows (userId,headline) for those users
    hub.py devices PATH N                    write register rows (installationId,token,userId) for the same users
    hub.py fanout-devices CONNECTION HUB N   PUT N installations with 5 tags each (see FANOUT_TAGS)
    hub.py fanout CONNECTION HUB EXPR SENDS CONCURRENCY
                                             time SENDS template sends to EXPR; prints JSON
    hub.py token CONNECTION HUB              print one SAS Authorization value (an hour's lifetime)
    hub.py clear CONNECTION                  forget recorded deliveries (DELETE /_emulator/deliveries)
    hub.py median V1 V2 ...                  print the median

Setup uses 8 threads with keep-alive connections; it is not what is measured.
"""
import asyncio
import base64
import concurrent.futures
import hashlib
import hmac
import http.client
import json
import random
import statistics
import sys
import threading
import time
import urllib.parse

import httpx

API = "api-version=2020-06"
DIGEST_TEMPLATE = '{"aps":{"alert":"$(message)"}}'
# Five tags per device. 'segment-7 && plan-pro' matches 1 in 50 x 1 in 2 = 1 % of them.
FANOUT_EXPRESSION = "segment-7 && plan-pro"
LANGUAGES = ["en", "fr", "de", "es", "it"]


def parse(connection):
    parts = dict(part.split("=", 1) for part in connection.split(";") if "=" in part)
    return parts["Endpoint"].rstrip("/") + "/", parts["SharedAccessKeyName"], parts["SharedAccessKey"].encode()


def token(connection, hub, lifetime=3600):
    endpoint, key_name, key = parse(connection)
    resource = urllib.parse.quote(endpoint + hub, safe="").lower()
    expiry = int(time.time()) + lifetime
    digest = hmac.new(key, f"{resource}\n{expiry}".encode(), hashlib.sha256).digest()
    signature = urllib.parse.quote(base64.b64encode(digest), safe="")
    return f"SharedAccessSignature sr={resource}&sig={signature}&se={expiry}&skn={key_name}"


def handle(i):
    return hashlib.sha256(f"device-{i}".encode()).hexdigest().upper()


def fanout_tags(i, rng):
    return [f"segment-{rng.randrange(50)}", f"plan-{rng.choice(['free', 'pro'])}",
            f"lang-{rng.choice(LANGUAGES)}", f"region-{rng.randrange(10)}", f"user-{i}"]


def put_all(connection, hub, bodies):
    """PUTs every (installation id, body) on 8 threads, each with its own keep-alive http.client connection
    (several times faster than an asyncio pool for bulk setup)."""
    endpoint, _, _ = parse(connection)
    address = urllib.parse.urlparse(endpoint)
    headers = {"Authorization": token(connection, hub), "Content-Type": "application/json"}
    local = threading.local()

    def put(item):
        installation_id, body = item
        if not hasattr(local, "connection"):
            local.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        local.connection.request("PUT", f"/{hub}/installations/{installation_id}?{API}", json.dumps(body), headers)
        response = local.connection.getresponse()
        text = response.read()
        if response.status != 200:
            raise SystemExit(f"PUT {installation_id}: {response.status} {text[:200]!r}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        for _ in pool.map(put, bodies, chunksize=64):
            pass


def users(connection, hub, n):
    def bodies():
        for i in range(1, n + 1):
            yield f"bench-user-{i}", {
                "installationId": f"bench-user-{i}", "platform": "apns", "pushChannel": handle(i),
                "userId": f"user-{i}", "templates": {"digest": {"body": DIGEST_TEMPLATE}}}
    put_all(connection, hub, bodies())


def rows(path, n):
    with open(path, "w") as out:
        out.write("userId,headline\n")
        for i in range(1, n + 1):
            out.write(f'user-{i},"Your digest for today, item {i}"\n')


def devices(path, n):
    with open(path, "w") as out:
        out.write("installationId,token,userId\n")
        for i in range(1, n + 1):
            out.write(f"bench-user-{i},{handle(i)},user-{i}\n")


def fanout_devices(connection, hub, n):
    rng = random.Random(6)

    def bodies():
        for i in range(1, n + 1):
            yield f"bench-fan-{i}", {
                "installationId": f"bench-fan-{i}", "platform": "apns", "pushChannel": handle(10_000_000 + i),
                "tags": fanout_tags(i, rng), "templates": {"digest": {"body": DIGEST_TEMPLATE}}}
    put_all(connection, hub, bodies())


def fanout(connection, hub, expression, sends, concurrency):
    endpoint, _, _ = parse(connection)
    url = f"{endpoint}{hub}/messages?{API}"
    headers = {"Authorization": token(connection, hub), "Content-Type": "application/json;charset=utf-8",
               "ServiceBusNotification-Format": "template", "ServiceBusNotification-Tags": expression}
    body = json.dumps({"message": "Fan-out benchmark"})
    with httpx.Client() as client:
        client.delete(f"{endpoint}_emulator/deliveries")
        response = client.post(url, content=body, headers=headers)  # one send to count the devices reached
        assert response.status_code == 201, response.text
        reached = len(client.get(f"{endpoint}_emulator/deliveries").json())
        client.delete(f"{endpoint}_emulator/deliveries")

    async def run():
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        async with httpx.AsyncClient(limits=limits, timeout=60) as client:
            remaining = sends

            async def worker():
                nonlocal remaining
                while remaining > 0:
                    remaining -= 1
                    response = await client.post(url, content=body, headers=headers)
                    if response.status_code != 201:
                        raise SystemExit(f"send: {response.status_code} {response.text[:200]}")
            started = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(concurrency)))
            return time.perf_counter() - started
    seconds = asyncio.run(run())
    print(json.dumps({"sends": sends, "seconds": round(seconds, 3), "sends_per_s": round(sends / seconds, 1),
                      "devices_per_send": reached}))


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "users":
        users(args[0], args[1], int(args[2]))
    elif command == "rows":
        rows(args[0], int(args[1]))
    elif command == "devices":
        devices(args[0], int(args[1]))
    elif command == "fanout-devices":
        fanout_devices(args[0], args[1], int(args[2]))
    elif command == "fanout":
        fanout(args[0], args[1], args[2], int(args[3]), int(args[4]))
    elif command == "token":
        print(token(args[0], args[1]))
    elif command == "clear":
        endpoint, _, _ = parse(args[0])
        httpx.delete(f"{endpoint}_emulator/deliveries")
    elif command == "median":
        print(statistics.median(float(v) for v in args))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
