"""The plugin protocol's loop, for plugins written in Python with the standard library only.

A plugin describes itself once and implements `run` (and, if it has checks of its own, `check`):

    from pushline_plugin import Plugin, PluginError

    plugin = Plugin(summary="…", effects="none", options=[…], outputs=[…])

    @plugin.run
    def run(options, context, emit):
        emit.rows([{"userId": "u1"}])
        return {"summary": "read 1 row", "outputs": {"count": 1}}

    plugin.serve()

The protocol itself is in docs/plugin-protocol.md; nothing here is needed to speak it.
"""
import json
import math
import sys
import traceback

PROTOCOL = 1
# Rows per message are bounded by size: a line may be at most 1 MiB; half of that leaves room.
MESSAGE_BYTES = 512 * 1024


class PluginError(Exception):
    """A failure the step reports as it is: a message and, optionally, what to do about it."""

    def __init__(self, message, hint=None):
        super().__init__(message)
        self.message = message
        self.hint = hint


class _Emitter:
    def __init__(self, request_id):
        self._id = request_id

    def rows(self, rows):
        """Sends rows (a list of objects of text, numbers, true/false or null), in order, in messages under the line cap."""
        batch, size = [], 0
        for row in rows:
            encoded = len(_encode(row))
            if encoded > MESSAGE_BYTES:
                raise PluginError("a row is %d KiB, more than a message may hold" % (encoded // 1024), "keep rows to the fields the pipeline uses")
            if batch and size + encoded > MESSAGE_BYTES:
                _send({"id": self._id, "rows": batch})
                batch, size = [], 0
            batch.append(row)
            size += encoded + 1
        if batch:
            _send({"id": self._id, "rows": batch})

    def progress(self, done, total=None):
        message = {"done": done}
        if total is not None:
            message["total"] = total
        _send({"id": self._id, "progress": message})


def _finite(value):
    """NaN and the infinities are not JSON: they go as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def _encode(message):
    return json.dumps(_finite(message), separators=(",", ":"), allow_nan=False)


def _send(message):
    sys.stdout.write(_encode(message) + "\n")
    sys.stdout.flush()


def log(text):
    """A line for Pushline's log (stderr: never stdout, which is the protocol)."""
    print(text, file=sys.stderr, flush=True)


class Plugin:
    def __init__(self, summary, effects, options=(), outputs=(), examples=(), repeat_safe=False):
        self.description = {
            "protocol": PROTOCOL, "summary": summary, "effects": effects,
            "options": list(options), "outputs": list(outputs), "examples": list(examples),
        }
        if repeat_safe:
            # A repeat of a run with the same idempotencyKey does nothing twice: a resumed run may run it again.
            self.description["repeatSafe"] = True
        self._run = None
        self._check = lambda options: []

    def run(self, function):
        """Registers run(options, context, emit) -> {"summary": …, "outputs": {…}}; raise PluginError to fail."""
        self._run = function
        return function

    def check(self, function):
        """Registers check(options) -> [{"path": [...], "message": …, "hint": …}]: problems only the plugin can see."""
        self._check = function
        return function

    def serve(self):
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
                request_id, method, params = request["id"], request["method"], request.get("params", {})
            except (ValueError, KeyError, TypeError) as error:
                log("a request Pushline sent could not be read (%s): %s" % (error, line[:200]))
                continue
            try:
                if method == "describe":
                    if PROTOCOL not in params.get("protocol", []):
                        raise PluginError("this plugin speaks protocol %d only" % PROTOCOL, "update Pushline or the plugin")
                    _send({"id": request_id, "result": self.description})
                elif method == "check":
                    _send({"id": request_id, "result": {"problems": self._check(params.get("options", {}))}})
                elif method == "run":
                    context = {key: value for key, value in params.items() if key != "options"}
                    result = self._run(params.get("options", {}), context, _Emitter(request_id)) or {}
                    _send({"id": request_id, "result": result})
                else:
                    raise PluginError("unknown method '%s'" % method)
            except PluginError as error:
                answer = {"message": error.message}
                if error.hint:
                    answer["hint"] = error.hint
                _send({"id": request_id, "error": answer})
            except Exception as error:  # a bug in the plugin: say so, with the traceback on stderr
                traceback.print_exc()
                _send({"id": request_id, "error": {"message": "%s: %s" % (type(error).__name__, error)}})
