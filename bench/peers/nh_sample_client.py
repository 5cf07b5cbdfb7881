"""The sample-style peer: a Notification Hubs client written the way Microsoft's documented Python REST
sample ("How to use Notification Hubs from Python") writes it, sending one template notification per row.

As the sample does: the connection string is split on ';', every send signs a fresh SAS token (URI quoted
with no safe characters and lower-cased, expiry now + 300 s, HMAC-SHA256, base64, quoted), every send opens
its own http.client connection, POSTs, reads the status, closes it, and sends are sequential. Two changes
are needed to reach the emulator at all and are not a handicap: the endpoint keeps its http scheme (the
sample rewrites sb:// to https://), and the api-version is the one Pushline sends, so both send the same
requests.

With --register it PUTs one installation per row of a devices file (installationId,token,userId) instead,
with the digest template, in the same style (the sample's REST calls take the same shape for installations:
a fresh token and connection per request, sequential).

    python3 nh_sample_client.py CONNECTION_STRING HUB ROWS.csv
    python3 nh_sample_client.py CONNECTION_STRING HUB DEVICES.csv --register
"""
import base64
import csv
import hashlib
import hmac
import http.client
import json
import sys
import time
import urllib.parse


class Notification:
    def __init__(self, notification_format, payload):
        self.format = notification_format
        self.payload = payload
        self.headers = None


class NotificationHub:
    API_VERSION = "?api-version=2020-06"

    def __init__(self, connection_string, hub_name):
        self.HubName = hub_name
        for part in connection_string.split(";"):
            if part.startswith("Endpoint="):
                self.Endpoint = part[len("Endpoint="):]
            elif part.startswith("SharedAccessKeyName="):
                self.SasKeyName = part[len("SharedAccessKeyName="):]
            elif part.startswith("SharedAccessKey="):
                self.SasKeyValue = part[len("SharedAccessKey="):]

    @staticmethod
    def get_expiry():
        return int(round(time.time() + 300))

    def sign_string(self, to_sign):
        digest = hmac.HMAC(self.SasKeyValue.encode("utf-8"), to_sign.encode("utf-8"), hashlib.sha256).digest()
        return base64.b64encode(digest)

    def generate_sas_token(self):
        target_uri = self.Endpoint + self.HubName
        my_uri = urllib.parse.quote(target_uri, "").lower()
        expiry = str(self.get_expiry())
        signature = urllib.parse.quote(self.sign_string(my_uri + "\n" + expiry))
        return "SharedAccessSignature sig={0}&se={1}&skn={2}&sr={3}".format(signature, expiry, self.SasKeyName, my_uri)

    def make_http_request(self, url, payload, headers, method="POST", expected=201):
        parsed_url = urllib.parse.urlparse(url)
        connection = http.client.HTTPConnection(parsed_url.hostname, parsed_url.port)
        connection.request(method, url, payload, headers)
        response = connection.getresponse()
        if response.status != expected:
            raise Exception("Error sending notification. Received HTTP code " + str(response.status) + " " + response.reason)
        connection.close()

    def send_notification(self, notification, tag_or_tag_expression=None):
        url = self.Endpoint + self.HubName + "/messages" + self.API_VERSION
        headers = {
            "Content-type": "application/json;charset=utf-8",
            "Authorization": self.generate_sas_token(),
            "ServiceBusNotification-Format": notification.format,
        }
        if tag_or_tag_expression:
            headers["ServiceBusNotification-Tags"] = tag_or_tag_expression
        self.make_http_request(url, json.dumps(notification.payload), headers)


    def create_or_update_installation(self, installation):
        url = self.Endpoint + self.HubName + "/installations/" + installation["installationId"] + self.API_VERSION
        headers = {"Content-type": "application/json", "Authorization": self.generate_sas_token()}
        self.make_http_request(url, json.dumps(installation), headers, method="PUT", expected=200)


DIGEST_TEMPLATE = '{"aps":{"alert":"$(message)"}}'


def main():
    connection_string, hub_name, rows_path = sys.argv[1:4]
    hub = NotificationHub(connection_string, hub_name)
    sent = 0
    if sys.argv[4:] == ["--register"]:
        with open(rows_path, newline="") as rows:
            for row in csv.DictReader(rows):
                hub.create_or_update_installation({
                    "installationId": row["installationId"], "platform": "apns", "pushChannel": row["token"],
                    "userId": row["userId"], "templates": {"digest": {"body": DIGEST_TEMPLATE}}})
                sent += 1
        print(json.dumps({"registered": sent}))
        return
    with open(rows_path, newline="") as rows:
        for row in csv.DictReader(rows):
            notification = Notification("template", {"message": row["headline"]})
            hub.send_notification(notification, "$UserId:{%s}" % row["userId"])
            sent += 1
    print(json.dumps({"sent": sent}))


if __name__ == "__main__":
    main()
