#!/usr/bin/env python3
"""A plugin for the host's tests: it behaves, or misbehaves in the one way its first argument names."""
import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def describe():
    return {
        "protocol": 1,
        "summary": "rows of a pretend CRM segment",
        "effects": "external" if MODE == "external" else "none",
        "options": [
            {"key": "segment", "type": "string", "required": True, "summary": "the segment to read", "examples": ["vip"]},
            {"key": "limit", "type": "integer", "default": 3, "summary": "how many rows"},
            {"key": "tags", "type": "list", "summary": "tags to stamp on each row"},
            {"key": "api-key", "type": "string", "secret": True, "summary": "a key the CRM gives"},
        ],
        "outputs": [
            {"name": "rows", "type": "rows", "summary": "the segment's users",
             # "columns": the fields every row has; "columns-missing" declares one its rows lack.
             **({"columns": ["userId", "name", "n", "vip"] + (["email"] if MODE == "columns-missing" else [])} if MODE.startswith("columns") else {})},
            {"name": "count", "type": "integer", "summary": "how many"},
            {"name": "note", "type": "string", "summary": "a remark"},
        ] + ([{"name": "complete", "type": "boolean", "summary": "whether every page was read"}] if MODE.startswith("boolean") else []),
        "examples": ["- crm: { segment: vip }"],
    }


def run(request):
    options = request["params"]["options"]
    rid = request["id"]
    if MODE == "malformed":
        print("this is not json", flush=True)
        return
    if MODE == "stdout-logs":
        print("fetching page 1 of the segment", flush=True)
        return
    if MODE == "overlong":
        sys.stdout.write('{"id": %d, "rows": [{"x": "%s"}]}\n' % (rid, "y" * (2 << 20)))
        sys.stdout.flush()
        return
    if MODE == "leaky-stdout":
        print("debug: GET /members token=%s and more" % os.environ.get("CRM_TOKEN", ""), flush=True)
        return
    if MODE == "extra-after":
        send({"id": rid, "result": {"summary": "done"}})
        send({"id": rid, "result": {"summary": "done again"}})
        return
    if MODE == "spawns":
        import subprocess
        child = subprocess.Popen(["sleep", "300"])
        open(os.environ["PIDFILE"], "w").write(str(child.pid))
        time.sleep(3600)
    if MODE == "wrong-id":
        send({"id": 99, "result": {}})
        return
    if MODE == "no-id":
        send({"result": {}})
        return
    if MODE == "hang":
        print("working on it", file=sys.stderr, flush=True)
        time.sleep(3600)
    if MODE == "error":
        send({"id": rid, "error": {"message": "the CRM said 401 to token " + os.environ.get("CRM_TOKEN", ""), "hint": "check CRM_TOKEN"}})
        return
    if MODE == "words":
        # Its environment's and its options' values in its words: which are hidden is the host's to say.
        words = "forked %s rows with token %s and key %s" % (os.environ.get("ROWS", ""), os.environ.get("CRM_TOKEN", ""), options.get("api-key", ""))
        print(words, file=sys.stderr, flush=True)
        send({"id": rid, "result": {"summary": words, "outputs": {"note": words}}})
        return
    if MODE == "env":
        send({"id": rid, "result": {"summary": "saw the environment", "outputs": {"note": ",".join(sorted(os.environ.keys()))}}})
        return
    if MODE.startswith("boolean"):
        send({"id": rid, "result": {"summary": "flagged", "outputs": {"complete": True if MODE == "boolean" else "yes"}}})
        return
    if MODE == "external":
        marker = os.environ.get("MARKER")
        if marker:
            open(marker, "w").write("ran")
        send({"id": rid, "result": {"summary": "posted", "outputs": {"count": 0}}})
        return
    limit = options.get("limit", 3)
    print("reading segment %s with token %s" % (options["segment"], os.environ.get("CRM_TOKEN", "")), file=sys.stderr, flush=True)
    rows = [{"userId": "u%d" % i, "name": "User %d" % i, "n": i, "vip": i % 2 == 0} for i in range(1, limit + 1)]
    for start in range(0, len(rows), 2):
        if MODE == "crash" and start >= 2:
            print("segment page 2 failed", file=sys.stderr, flush=True)
            sys.exit(3)
        send({"id": rid, "rows": rows[start:start + 2]})
        send({"id": rid, "progress": {"done": min(start + 2, len(rows)), "total": len(rows)}})
    send({"id": rid, "result": {"summary": "read %d users of %s" % (len(rows), options["segment"]),
                                "outputs": {"count": len(rows), "note": "token " + os.environ.get("CRM_TOKEN", "")}}})
    if MODE == "exit-mismatch":
        sys.exit(1)
    if MODE == "linger":
        # Answered, then ignores the end of its input.
        time.sleep(3600)


for line in sys.stdin:
    request = json.loads(line)
    method = request["method"]
    if method == "describe":
        if MODE == "hang-describe":
            time.sleep(3600)
        if MODE == "bad-describe":
            send({"id": request["id"], "result": {"protocol": 1, "summary": "no effects said"}})
        else:
            send({"id": request["id"], "result": describe()})
    elif method == "check":
        options = request["params"]["options"]
        problems = []
        if options.get("segment") == "nobody":
            problems.append({"path": ["segment"], "message": "no segment is called 'nobody'", "hint": "segments: vip, churned"})
        send({"id": request["id"], "result": {"problems": problems}})
    elif method == "run":
        run(request)
    else:
        send({"id": request["id"], "error": {"message": "unknown method " + method}})
