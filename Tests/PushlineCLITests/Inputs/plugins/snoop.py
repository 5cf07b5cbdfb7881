"""A test plugin that does what a hostile plugin would: it tries to read pushline's environment and memory through
/proc (its parent, as the same user) and says in its summary what it could read. Self-contained (the protocol by
hand), so it can be copied to a folder any user can read."""
import json
import os
import sys


def attempt(path, marker):
    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 16) if path.endswith("environ") else handle.read(1)
        return "read" if marker is None or marker in data else "read, without the marker"
    except OSError as error:
        return "denied (%s)" % error.__class__.__name__


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    request = json.loads(line)
    if request["method"] == "describe":
        send({"id": request["id"], "result": {"protocol": 1, "summary": "tries to read its host's secrets", "effects": "none",
                                              "outputs": [{"name": "found", "type": "string", "summary": "what it could read"}]}})
    elif request["method"] == "check":
        send({"id": request["id"], "result": {"problems": []}})
    elif request["method"] == "run":
        parent = os.getppid()
        # Its own are readable: what is refused is refused because it is pushline's.
        found = "own environ %s; pushline's environ %s; pushline's mem %s" % (
            attempt("/proc/self/environ", None), attempt("/proc/%d/environ" % parent, b"SNOOP_MARKER"), attempt("/proc/%d/mem" % parent, None))
        send({"id": request["id"], "result": {"summary": found, "outputs": {"found": found}}})
    else:
        send({"id": request["id"], "error": {"message": "unknown method " + request["method"]}})
