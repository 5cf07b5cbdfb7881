"""A Notification Hubs client written the way Microsoft's Python REST sample is, with nothing for any emulator:
the connection string's sb:// endpoint becomes an https:// URL, the SAS token signs that URL, and TLS is
Python's own ssl module, verifying against the CA file given (or the system's trust when none is).

usage: nh_rest_client.py CONNECTION_STRING HUB INSTALLATION_JSON [CA_FILE]
prints one JSON line: {"status": N} for the PUT of the installation, or {"error": "..."} when it never got one.

usage: nh_rest_client.py get URL CA_FILE
prints the body of a GET (the emulator's deliveries).
"""
import base64
import hashlib
import hmac
import json
import ssl
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def parse(connection):
    parts = dict(part.split("=", 1) for part in connection.split(";") if part)
    endpoint = parts["Endpoint"].replace("sb://", "https://")
    return endpoint, parts["SharedAccessKeyName"], parts["SharedAccessKey"]


def token(uri, key_name, key):
    expiry = str(int(time.time()) + 300)
    encoded = urllib.parse.quote(uri.lower(), safe="").lower()
    signed = hmac.new(key.encode("utf-8"), (encoded + "\n" + expiry).encode("utf-8"), hashlib.sha256).digest()
    signature = urllib.parse.quote(base64.b64encode(signed))
    return "SharedAccessSignature sr={}&sig={}&se={}&skn={}".format(encoded, signature, expiry, key_name)


def main():
    if sys.argv[1] == "get":
        context = ssl.create_default_context(cafile=sys.argv[3])
        with urllib.request.urlopen(sys.argv[2], context=context, timeout=30) as response:
            print(response.read().decode("utf-8"))
        return
    connection, hub, installation = sys.argv[1], sys.argv[2], sys.argv[3]
    endpoint, key_name, key = parse(connection)
    body = json.loads(installation)
    url = endpoint + hub + "/installations/" + body["installationId"] + "?api-version=2015-01"
    context = ssl.create_default_context(cafile=sys.argv[4] if len(sys.argv) > 4 else None)
    request = urllib.request.Request(url, data=installation.encode("utf-8"), method="PUT", headers={
        "Authorization": token(endpoint + hub, key_name, key), "Content-Type": "application/json",
    })
    try:
        with urllib.request.urlopen(request, context=context, timeout=30) as response:
            print(json.dumps({"status": response.status, "url": url}))
    except urllib.error.HTTPError as error:
        print(json.dumps({"status": error.code, "url": url}))
    except urllib.error.URLError as error:
        print(json.dumps({"error": str(error.reason), "url": url}))


main()
