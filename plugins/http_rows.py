#!/usr/bin/env python3
"""Rows from a JSON HTTP API that pages: a CRM segment, a list of users. It only reads, so a dry run runs it and
shows its real rows."""
import json
import os
import urllib.error
import urllib.parse
import urllib.request

from pushline_plugin import Plugin, PluginError, log

plugin = Plugin(
    summary="Rows from a JSON HTTP API, following its next-page links.",
    effects="none",
    options=[
        {"key": "url", "type": "string", "required": True, "summary": "the first page's URL", "examples": ["https://crm.example.com/api/segments/vip/members"]},
        {"key": "items", "type": "string", "default": "items",
         "summary": "where a page holds its list of rows: a key, a dotted path (data.members), or '.' for a page that is the list"},
        {"key": "next", "type": "string", "default": "next",
         "summary": "where a page holds the next page's URL (absolute or relative); absent or null on the last page"},
        {"key": "fields", "type": "list", "summary": "the fields to keep, in this order (default: every field that is text, a number, true/false or null)"},
        {"key": "headers", "type": "map", "summary": "request headers that are not secret (Accept, X-Tenant)"},
        {"key": "bearer-env", "type": "string",
         "summary": "the name of a variable in the plugin's env: that holds a bearer token, sent as Authorization: Bearer …",
         "examples": ["CRM_TOKEN"]},
        {"key": "max-pages", "type": "integer", "default": 1000, "summary": "the most pages read; more fails the step (nothing is cut silently)"},
        {"key": "timeout", "type": "duration", "default": "30s", "summary": "how long each page may take"},
    ],
    outputs=[
        {"name": "rows", "type": "rows", "summary": "the rows of every page, in order"},
        {"name": "count", "type": "integer", "summary": "how many rows"},
        {"name": "pages", "type": "integer", "summary": "how many pages were read"},
    ],
    examples=["- id: members\n  http-rows: { url: \"${env:CRM_URL}/segments/vip/members\", items: data, bearer-env: CRM_TOKEN }"],
)


@plugin.check
def check(options):
    problems = []
    url = options.get("url", "")
    if not url.startswith("${") and not url.lower().startswith(("http://", "https://")):
        problems.append({"path": ["url"], "message": "the URL must start with https:// (or http://)"})
    name = options.get("bearer-env")
    if name and not name.replace("_", "").isalnum():
        problems.append({"path": ["bearer-env"], "message": "bearer-env names a variable of the plugin's env:, e.g. CRM_TOKEN",
                         "hint": "write the name, not the token; list it under the plugin's env:"})
    return problems


def pick(page, path):
    if path == ".":
        return page
    value = page
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def origin(url):
    parts = urllib.parse.urlsplit(url)
    return (parts.scheme.lower(), parts.netloc.lower())


def fetch(url, headers, token, timeout):
    request = urllib.request.Request(url, headers=headers)
    if token:
        # Unredirected: urllib would otherwise copy it to whatever host a redirect names.
        request.add_unredirected_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        raise PluginError("%s answered %d %s" % (url.split("?")[0], error.code, error.reason),
                          "check the URL and the token" if error.code in (401, 403) else None)
    except (urllib.error.URLError, OSError) as error:
        raise PluginError("%s could not be reached: %s" % (url.split("?")[0], getattr(error, "reason", error)))
    except ValueError:
        raise PluginError("%s did not answer JSON" % url.split("?")[0])


@plugin.run
def run(options, context, emit):
    headers = {"Accept": "application/json", "User-Agent": "pushline-http-rows/1"}
    headers.update(options.get("headers", {}))
    name, token = options.get("bearer-env"), None
    if name:
        token = os.environ.get(name)
        if not token:
            raise PluginError("bearer-env names %s, which the plugin's env: does not set" % name, "add %s: \"${env:%s}\" under the plugin's env:" % (name, name))
    items_path, next_path = options.get("items", "items"), options.get("next", "next")
    fields, max_pages, timeout = options.get("fields"), options.get("max-pages", 1000), options.get("timeout", 30)
    url, pages, count, columns, dropped = options["url"], 0, 0, None, set()
    home = origin(url)
    while url:
        if pages == max_pages:
            raise PluginError("there are more than %d pages" % max_pages, "raise max-pages if the API really holds this many")
        # The token goes only where the first page came from, never to a host a next link names.
        page = fetch(url, headers, token if origin(url) == home else None, timeout)
        pages += 1
        items = pick(page, items_path)
        if not isinstance(items, list):
            raise PluginError("page %d has no list at '%s'" % (pages, items_path), "set items: to where the page holds its rows ('.' when the page is the list)")
        rows = []
        for item in items:
            if not isinstance(item, dict):
                raise PluginError("page %d holds a row that is not an object" % pages)
            if fields:
                rows.append({field: item.get(field) if not isinstance(item.get(field), (dict, list)) else json.dumps(item.get(field)) for field in fields})
            else:
                # The first row's fields are every row's (the protocol's columns); a field a later row adds is left out.
                row = {key: value for key, value in item.items() if not isinstance(value, (dict, list))}
                if columns is None:
                    columns = list(row)
                dropped.update(key for key in row if key not in columns)
                rows.append({column: row.get(column) for column in columns})
        emit.rows(rows)
        count += len(rows)
        emit.progress(count)
        log("page %d: %d rows" % (pages, len(rows)))
        following = pick(page, next_path) if isinstance(page, dict) else None
        url = urllib.parse.urljoin(url, following) if following else None
    if dropped:
        log("fields not in the first row were left out: %s (name the fields to keep with fields:)" % ", ".join(sorted(dropped)))
    return {"summary": "read %d row%s in %d page%s" % (count, "" if count == 1 else "s", pages, "" if pages == 1 else "s"),
            "outputs": {"count": count, "pages": pages}}


if __name__ == "__main__":
    plugin.serve()
