"""A test plugin that records every run request it gets (the run, the attempt, the step's idempotency key) and, while
a file named `slow` lies in its folder, works for a minute: for the tests of plugins that live and die with their run.

With RECORDER_EFFECTS=external (in its `env:`) it has external effects and hands on a count instead of rows, as a
plugin that posts would; RECORDER_REPEAT_SAFE=1 makes it declare that a repeat with the same key is safe. With RECORDER_STARTS=FILE and
RECORDER_FAIL_START=N it counts its starts in FILE and exits at once (before any request) on the Nth."""
import json
import os
import sys
import time

if os.environ.get("RECORDER_STARTS"):
    counter = os.environ["RECORDER_STARTS"]
    starts = (int(open(counter).read()) if os.path.exists(counter) else 0) + 1
    open(counter, "w").write(str(starts))
    if str(starts) == os.environ.get("RECORDER_FAIL_START"):
        print("cannot reach the chat service", file=sys.stderr, flush=True)
        sys.exit(3)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "plugins"))
from pushline_plugin import Plugin  # noqa: E402

external = os.environ.get("RECORDER_EFFECTS") == "external"
plugin = Plugin(
    summary="records its run requests",
    effects="external" if external else "none",
    options=[{"key": "folder", "type": "string", "required": True, "summary": "where to record (requests.jsonl, pid) and to look for `slow`"}],
    outputs=[{"name": "posted", "type": "integer", "summary": "1 when it ran"}] if external
    else [{"name": "rows", "type": "rows", "summary": "one row"}],
    repeat_safe=os.environ.get("RECORDER_REPEAT_SAFE") == "1",
)


@plugin.run
def run(options, context, emit):
    folder = options["folder"]
    with open(os.path.join(folder, "requests.jsonl"), "a") as out:
        out.write(json.dumps({key: context.get(key) for key in ("run", "attempt", "idempotencyKey", "dryRun")}) + "\n")
    with open(os.path.join(folder, "pid"), "w") as out:
        out.write(str(os.getpid()))
    emit.progress(1, 2)
    if os.path.exists(os.path.join(folder, "slow")):
        time.sleep(60)
    if external:
        return {"summary": "recorded the request (and posted)", "outputs": {"posted": 1}}
    emit.rows([{"userId": "u-1"}])
    return {"summary": "recorded the request"}


plugin.serve()
