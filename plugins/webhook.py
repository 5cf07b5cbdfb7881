#!/usr/bin/env python3
"""Posts a message to a Slack- or Teams-compatible incoming webhook: a run's summary, with counts and failures of
earlier steps put in through ${steps.ID.OUTPUT}. It has external effects, so a dry run does not post."""
import json
import urllib.error
import urllib.request

from pushline_plugin import Plugin, PluginError

plugin = Plugin(
    summary="Posts a message (a run summary) to a Slack- or Teams-compatible incoming webhook.",
    effects="external",
    options=[
        {"key": "url", "type": "string", "required": True, "summary": "the incoming webhook's URL (keep it in ${env:…}: it is a secret)",
         "examples": ["${env:OPS_WEBHOOK}"]},
        {"key": "text", "type": "string", "required": True, "summary": "the message; ${steps.ID.OUTPUT} puts in earlier steps' counts",
         "examples": ["digest: ${steps.digest.accepted} sent, ${steps.digest.failed} failed"]},
        {"key": "format", "type": "string", "default": "slack",
         "summary": "slack: {\"text\": …} (Slack, Mattermost, Rocket.Chat, Teams workflows); teams: an Office 365 MessageCard"},
        {"key": "timeout", "type": "duration", "default": "10s", "summary": "how long the post may take"},
    ],
    outputs=[{"name": "status", "type": "integer", "summary": "the webhook's HTTP status"}],
    examples=['- when: always\n  webhook: { url: "${env:OPS_WEBHOOK}", text: "digest: ${steps.digest.accepted} sent, ${steps.digest.failed} failed" }'],
)


@plugin.check
def check(options):
    problems = []
    url = options.get("url", "")
    if not url.startswith("${") and not url.lower().startswith(("http://", "https://")):
        problems.append({"path": ["url"], "message": "the webhook URL must start with https:// (or http://)",
                         "hint": "paste the URL the chat app gave for the incoming webhook, through ${env:NAME}"})
    if options.get("format", "slack") not in ("slack", "teams"):
        problems.append({"path": ["format"], "message": "format must be slack or teams"})
    return problems


@plugin.run
def run(options, context, emit):
    text = options["text"]
    if options.get("format", "slack") == "teams":
        body = {"@type": "MessageCard", "@context": "http://schema.org/extensions", "summary": text[:80], "text": text}
    else:
        body = {"text": text}
    request = urllib.request.Request(options["url"], data=json.dumps(body).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "pushline-webhook/1"})
    try:
        with urllib.request.urlopen(request, timeout=options.get("timeout", 10)) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        detail = error.read(300).decode("utf-8", "replace").strip()
        raise PluginError("the webhook answered %d %s%s" % (error.code, error.reason, (": " + detail) if detail else ""),
                          "check the webhook URL; a chat app answers 404 or 410 for one it revoked")
    except TimeoutError:
        raise PluginError("the webhook did not answer within %s s; the message may have been posted" % options.get("timeout", 10),
                          "look in the channel before running again: a re-run posts again")
    except urllib.error.URLError as error:
        if isinstance(error.reason, TimeoutError):
            raise PluginError("the webhook did not answer in time; the message may have been posted",
                              "look in the channel before running again: a re-run posts again")
        raise PluginError("the webhook could not be reached: %s" % error.reason, "check the URL and this machine's network; nothing was posted")
    except OSError as error:
        raise PluginError("the connection to the webhook failed: %s; the message may have been posted" % error,
                          "look in the channel before running again: a re-run posts again")
    return {"summary": "posted to the webhook (%d)" % status, "outputs": {"status": status}}


if __name__ == "__main__":
    plugin.serve()
