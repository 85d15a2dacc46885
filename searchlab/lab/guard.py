"""What keeps a web page the teacher happens to visit from using the lab: the request checks
that come before any of the lab's work.

- ``HostGuard`` (ASGI middleware, every request): the Host header must name one of the
  ``hosts`` the lab is served under (the loopback names by default, any port), so a DNS
  rebinding page (its own name resolving to 127.0.0.1) cannot read the lab's answers; every
  POST must come from the same origin (an ``Origin`` header, when the client sends one, equal
  to ``http://`` + the Host; browsers send it on every POST, scripts like curl send none) and
  say ``Content-Type: application/json`` (a cross-origin page can send ``text/plain``
  without asking first; ``application/json`` makes the browser ask, and the lab never says yes).
- ``read_json`` (each POST endpoint): the body read chunk by chunk, refused with 413 as soon
  as it passes the limit (never more than the limit plus one chunk held; a declared
  Content-Length over the limit is refused before reading), then its JSON nesting checked
  (at most ``MAX_JSON_DEPTH``) before it is parsed.

Every refusal is the lab's JSON ``{"error": "one line"}``.
"""

from __future__ import annotations

import json
from typing import Any, AsyncIterator, Callable

#: the names of the loopback interface a browser may put in the Host header
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: the deepest JSON nesting a body may have (the lab's bodies are at most 3 deep)
MAX_JSON_DEPTH = 32


class Refused(Exception):
    """A request the guard refuses: ``status`` and the one-line message."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def host_name(host: str) -> str:
    """The name in a Host header without its port: ``[::1]:8765`` -> ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):                 # an IPv6 literal: [addr]:port
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _json_response(message: str, status: int) -> list[dict]:
    body = json.dumps({"error": message}).encode()
    return [{"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]},
            {"type": "http.response.body", "body": body}]


class HostGuard:
    """ASGI middleware: the Host, Origin and Content-Type checks (module docstring).
    ``hosts=None`` accepts any Host (the lab served to the network with --allow-remote); the
    Origin and Content-Type checks apply either way."""

    def __init__(self, app: Callable, hosts: tuple[str, ...] | None = LOOPBACK_HOSTS) -> None:
        self.app = app
        self.hosts = None if hosts is None else tuple(h.lower() for h in hosts)

    def check(self, scope: dict) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            raise Refused(f"Host header {host[:100]!r} is not one the lab is served under "
                          f"({', '.join(self.hosts)})", 421)
        if scope["method"] != "POST":
            return
        origin = headers.get("origin")
        if origin is not None and origin != f"{scope.get('scheme', 'http')}://{host}":
            raise Refused(f"Origin {origin[:100]!r} is not this page's: the lab answers "
                          "only its own page", 403)
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(f"Content-Type must be application/json; got {kind[:100] or 'none'!r}",
                          415)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "http":
            try:
                self.check(scope)
            except Refused as e:
                for message in _json_response(str(e), e.status):
                    await send(message)
                return
        await self.app(scope, receive, send)


def json_depth_over(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text ``raw`` nests arrays/objects more than ``limit`` deep (brackets
    inside strings not counted). Checked before parsing: Python's parser recurses per level."""
    depth, in_string, escaped = 0, False, False
    for c in raw:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:                 # backslash
                escaped = True
            elif c == 0x22:                 # closing quote
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in (0x5B, 0x7B):             # [ {
            depth += 1
            if depth > limit:
                return True
        elif c in (0x5D, 0x7D):
            depth -= 1
    return False


async def read_body(stream: AsyncIterator[bytes], declared: str | None, limit: int) -> bytes:
    """The body from ``stream`` (chunks), refused (413) once it passes ``limit`` bytes: the
    rest is never read."""
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise Refused(f"request body over {limit} bytes (Content-Length {declared})", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in stream:
        size += len(chunk)
        if size > limit:
            raise Refused(f"request body over {limit} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(stream: AsyncIterator[bytes], declared: str | None, limit: int) -> Any:
    """The body parsed as JSON (an empty body is ``{}``); Refused (400/413) else."""
    raw = await read_body(stream, declared, limit)
    if json_depth_over(raw):
        raise Refused(f"the request body nests JSON more than {MAX_JSON_DEPTH} levels deep", 400)
    try:
        return json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise Refused("the request body is not valid JSON", 400) from None

