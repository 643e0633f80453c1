"""Schemathesis hooks for scripts/contract (test side only).

A `wait` command sleeps for real: the schema allows up to 15000 ms, and schemathesis probes the
boundaries, so a run would spend most of its time asleep. Waits the schema allows are shortened to
50 ms before they are sent; longer or malformed ones (negative cases) go out as generated, so the
daemon's refusals are still checked. DaemonAPITests pins the boundary itself.
"""
import schemathesis

SHORT_WAIT_MS = 50


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    body = case.body
    if (
        isinstance(body, dict)
        and body.get("type") == "wait"
        and isinstance(body.get("ms"), int)
        and not isinstance(body.get("ms"), bool)
        and SHORT_WAIT_MS < body["ms"] <= 15000
    ):
        body["ms"] = SHORT_WAIT_MS
