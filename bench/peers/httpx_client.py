"""The concurrent peer: an asyncio client over httpx with a keep-alive pool, at the same concurrency as
Pushline, sending the same template notification per row (same headers, same body, same api-version).

The SAS token is signed once and re-signed a minute before it expires, as a well-written client does.
Rows are read as they are sent, by CONCURRENCY workers sharing one httpx.AsyncClient whose pool holds
CONCURRENCY connections.

With --register it PUTs one installation per row of a devices file (installationId,token,userId) instead,
with the digest template, the same way.

    python3 httpx_client.py CONNECTION_STRING HUB ROWS.csv CONCURRENCY
    python3 httpx_client.py CONNECTION_STRING HUB DEVICES.csv CONCURRENCY --register
"""
import asyncio
import base64
import csv
import hashlib
import hmac
import json
import sys
import time
import urllib.parse

import httpx


class Signer:
    def __init__(self, connection_string, hub):
        parts = dict(part.split("=", 1) for part in connection_string.split(";") if "=" in part)
        self.endpoint = parts["Endpoint"].rstrip("/") + "/"
        self.key_name = parts["SharedAccessKeyName"]
        self.key = parts["SharedAccessKey"].encode("utf-8")
        self.resource = urllib.parse.quote(self.endpoint + hub, safe="").lower()
        self.token, self.expiry = "", 0

    def authorization(self):
        now = int(time.time())
        if now > self.expiry - 60:
            self.expiry = now + 3600
            digest = hmac.new(self.key, f"{self.resource}\n{self.expiry}".encode("utf-8"), hashlib.sha256).digest()
            signature = urllib.parse.quote(base64.b64encode(digest), safe="")
            self.token = f"SharedAccessSignature sr={self.resource}&sig={signature}&se={self.expiry}&skn={self.key_name}"
        return self.token


DIGEST_TEMPLATE = '{"aps":{"alert":"$(message)"}}'


async def main():
    connection_string, hub, rows_path, concurrency = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    register = sys.argv[5:] == ["--register"]
    signer = Signer(connection_string, hub)
    url = f"{signer.endpoint}{hub}/messages?api-version=2020-06"
    queue = asyncio.Queue(maxsize=concurrency * 4)
    failures = []
    sent = 0

    async def worker(client):
        nonlocal sent
        while True:
            row = await queue.get()
            if row is None:
                return
            if register:
                installation = {"installationId": row["installationId"], "platform": "apns", "pushChannel": row["token"],
                                "userId": row["userId"], "templates": {"digest": {"body": DIGEST_TEMPLATE}}}
                response = await client.put(
                    f"{signer.endpoint}{hub}/installations/{row['installationId']}?api-version=2020-06",
                    content=json.dumps(installation),
                    headers={"Content-Type": "application/json", "Authorization": signer.authorization()})
                if response.status_code == 200:
                    sent += 1
                else:
                    failures.append(response.status_code)
                continue
            headers = {
                "Content-Type": "application/json;charset=utf-8",
                "Authorization": signer.authorization(),
                "ServiceBusNotification-Format": "template",
                "ServiceBusNotification-Tags": "$UserId:{%s}" % row["userId"],
            }
            response = await client.post(url, content=json.dumps({"message": row["headline"]}), headers=headers)
            if response.status_code == 201:
                sent += 1
            else:
                failures.append(response.status_code)

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        workers = [asyncio.create_task(worker(client)) for _ in range(concurrency)]
        with open(rows_path, newline="") as rows:
            for row in csv.DictReader(rows):
                await queue.put(row)
        for _ in workers:
            await queue.put(None)
        await asyncio.gather(*workers)
    print(json.dumps({"sent": sent, "failed": len(failures)}))
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main())
