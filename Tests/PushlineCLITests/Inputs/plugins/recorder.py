"""A test plugin that records every run request it gets (the run, the attempt, the step's idempotency key) and, while
a file named `slow` lies in its folder, works for a minute: for the tests of plugins that live and die with their run."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "plugins"))
from pushline_plugin import Plugin  # noqa: E402

plugin = Plugin(
    summary="records its run requests",
    effects="none",
    options=[{"key": "folder", "type": "string", "required": True, "summary": "where to record (requests.jsonl, pid) and to look for `slow`"}],
    outputs=[{"name": "rows", "type": "rows", "summary": "one row"}],
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
    emit.rows([{"userId": "u-1"}])
    return {"summary": "recorded the request"}


plugin.serve()
