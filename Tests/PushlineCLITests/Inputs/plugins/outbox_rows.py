"""A test rows plugin that reads an outbox table from a SQLite file, as an app's own API would hand its rows on: the
nightly walkthrough run with a plugin in place of the query."""
import os
import sqlite3
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "plugins"))
from pushline_plugin import Plugin, PluginError  # noqa: E402

plugin = Plugin(
    summary="reads the rows of an outbox table",
    effects="none",
    options=[
        {"key": "database", "type": "string", "required": True, "summary": "the SQLite file"},
        {"key": "sql", "type": "string", "required": True, "summary": "the SELECT"},
    ],
    outputs=[{"name": "rows", "type": "rows", "summary": "one row per notification"}],
)


@plugin.run
def run(options, context, emit):
    try:
        connection = sqlite3.connect("file:%s?mode=ro" % options["database"], uri=True)
        try:
            cursor = connection.execute(options["sql"])
            columns = [column[0] for column in cursor.description]
            rows = [dict(zip(columns, values)) for values in cursor.fetchall()]
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise PluginError("the outbox could not be read: %s" % error)
    emit.rows(rows)
    return {"summary": "read %d rows of the outbox" % len(rows)}


plugin.serve()
