"""A test plugin that does what a hostile plugin would: it tries to read pushline's environment and memory through
/proc (its parent, as the same user) and says in its summary what it could read."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "plugins"))
from pushline_plugin import Plugin  # noqa: E402

plugin = Plugin(summary="tries to read its host's secrets", effects="none",
                outputs=[{"name": "found", "type": "string", "summary": "what it could read"}])


def attempt(path, marker):
    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 16) if path.endswith("environ") else handle.read(1)
        return "read" if marker is None or marker in data else "read, without the marker"
    except OSError as error:
        return "denied (%s)" % error.__class__.__name__


@plugin.run
def run(options, context, emit):
    parent = os.getppid()
    # Its own are readable: what is refused is refused because it is pushline's.
    found = "own environ %s; pushline's environ %s; pushline's mem %s" % (
        attempt("/proc/self/environ", None), attempt("/proc/%d/environ" % parent, b"SNOOP_MARKER"), attempt("/proc/%d/mem" % parent, None))
    return {"summary": found, "outputs": {"found": found}}


plugin.serve()
