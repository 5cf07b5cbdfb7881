#!/usr/bin/env python3
"""A loopback stand-in for a CRM's paged JSON API and a chat's incoming webhook, for the plugin tests.

GET /members?page=N  pages of 100 members u-1 … u-COUNT ({"data": [...], "links": {"next": "/members?page=N+1"}});
                     every GET is counted in STATE/gets.
POST /hook           appends the body, one line, to STATE/posts.
POST /_members/COUNT changes how many members there are.
Prints "listening PORT" once it accepts connections."""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

STATE = sys.argv[1]
COUNT = [int(sys.argv[2])]


def append(name, text):
    with open(os.path.join(STATE, name), "a") as handle:
        handle.write(text + "\n")


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        if url.path != "/members":
            return self.answer(404, {"error": "no such path"})
        if self.headers.get("Authorization") != "Bearer crm-token-123":
            return self.answer(401, {"error": "bad token"})
        page = int(parse_qs(url.query).get("page", ["1"])[0])
        append("gets", str(page))
        first = (page - 1) * 100 + 1
        last = min(page * 100, COUNT[0])
        members = [{"userId": "u-%d" % n, "name": "Member %d" % n, "score": n % 7} for n in range(first, last + 1)]
        links = {"next": "/members?page=%d" % (page + 1)} if last < COUNT[0] else {}
        self.answer(200, {"data": members, "links": links})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        if self.path == "/hook":
            append("posts", body)
            return self.answer(200, {"ok": True})
        if self.path.startswith("/_members/"):
            COUNT[0] = int(self.path.rsplit("/", 1)[1])
            return self.answer(200, {"count": COUNT[0]})
        self.answer(404, {})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("listening %d" % server.server_address[1], flush=True)
server.serve_forever()
