"""``searchlab lab``: start the lab's web app, or write the offline trace player.

    searchlab lab [--host 127.0.0.1] [--port 8765] [--allow-remote] [--plugin MODULE ...]
    searchlab lab export (--preset NAME | --tree JSON) --out FILE.html [--title TEXT]

Binds 127.0.0.1 by default; any other host is refused unless ``--allow-remote`` is given, and
then the command says that the lab is reachable from the network (it has no authentication).
"""

from __future__ import annotations

import argparse
import ipaddress
import sys

from searchlab.errors import InvalidParameterError
from searchlab.lab.guard import LOOPBACK_HOSTS
from searchlab.lab.trace_player_export import export_trace_html
from searchlab.lab.requests import LabError

try:                            # the optional extra "web"; `searchlab lab export` needs neither
    import uvicorn
    from searchlab.lab.app import create_app
except ImportError:             # pragma: no cover - exercised only without the extra
    uvicorn = None

def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="searchlab lab", description=(
        "The searchlab lab in the browser: step through alpha-beta on any tree, play and compare "
        "the algorithms on every registered game: boards for tic-tac-toe, Connect Four, Othello "
        "and Hex, the generic view for the others and plug-ins (docs/lab.md)."))
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 = any free port)")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow a host other than loopback (the lab has no authentication)")
    p.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                   help="a module registering games (its GAME or register()), ordering "
                        "components (register_component()) or search algorithms "
                        "(register_algorithm()); repeatable; "
                        "installed entry-point plug-ins need none (docs/extending.md)")
    sub = p.add_subparsers(dest="command")
    e = sub.add_parser("export", help="write the trace player as one self-contained HTML file")
    src = e.add_mutually_exclusive_group(required=True)
    src.add_argument("--preset", help="a preset tree: textbook, homework, ... (docs/lab.md)")
    src.add_argument("--tree", help="nested lists, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'")
    e.add_argument("--out", required=True, help="the HTML file to write")
    e.add_argument("--title", default=None, help="the page's title")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "export":
        tree = args.preset if args.preset else {"kind": "nested", "text": args.tree}
        try:
            export_trace_html(tree, args.out, title=args.title)
        except (LabError, OSError) as e:
            print(f"searchlab lab export: error: {e}", file=sys.stderr)
            return 2
        print(f"wrote {args.out}")
        return 0
    if not 0 <= args.port <= 65535:
        print(f"searchlab lab: error: --port must be in 0..65535; got {args.port}", file=sys.stderr)
        return 2
    if not _is_loopback(args.host) and not args.allow_remote:
        print(f"searchlab lab: error: --host {args.host} is not a loopback address; the lab has "
              "no authentication: add --allow-remote to serve it to the network anyway",
              file=sys.stderr)
        return 2
    if uvicorn is None:
        print("searchlab lab: error: the lab's web app needs the optional extra 'web' "
              "(pip install 'searchlab[web]': starlette, uvicorn)", file=sys.stderr)
        return 2
    # served on loopback, the Host header must name loopback (no DNS rebinding); served to the
    # network (--allow-remote), the machine's names are not known here, so any Host is taken
    hosts = LOOPBACK_HOSTS if _is_loopback(args.host) else None
    try:
        app = create_app(hosts=hosts, plugins=tuple(args.plugin))
    except InvalidParameterError as e:
        print(f"searchlab lab: error: {e}", file=sys.stderr)
        return 2
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    if not _is_loopback(args.host):
        print(f"searchlab lab: WARNING: serving on {args.host}, reachable from the network, "
              "without authentication (--allow-remote)")

    original = server.startup

    async def startup(sockets=None):
        await original(sockets)
        for s in server.servers:
            for sock in s.sockets:
                host, port = sock.getsockname()[:2]
                shown = f"[{host}]" if ":" in host else host
                print(f"searchlab lab: serving on http://{shown}:{port}/  (Ctrl-C to stop)",
                      flush=True)
    server.startup = startup
    server.run()
    return 0
