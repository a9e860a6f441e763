"""The command line: ``python -m games evaluate FILE|-`` and ``python -m games simulate``
(ROUND_RECORD.md §7), and ``python -m games verify FILE|-`` (a tournament export checked
without the site, ``games.verify``). Exit 0 when every record is ok (every check agrees), 1 when
any is not (the first disagreement is named), 2 when the input cannot be read at all."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from . import da_ling, tau_ngau
from .catalog import CATALOG
from .connecting import LEVELS
from .engine import evaluate

MAX_INPUT = 64 * 1024 * 1024

#: What ``simulate --level`` offers: the connecting games' levels, then Tau Ngau's and Da Ling's.
SIMULATE_LEVELS = LEVELS + tau_ngau.LEVELS + da_ling.LEVELS


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _read_input(name: str, stdin: TextIO) -> str:
    if name == "-":
        return stdin.read(MAX_INPUT + 1)
    with open(name, encoding="utf-8") as f:
        return f.read(MAX_INPUT + 1)


def _parse(text: str, jsonl_name: bool) -> tuple[str, list[Any]]:
    """('single' | 'array' | 'lines', records). Raises ValueError when nothing can be read."""
    if len(text) > MAX_INPUT:
        raise ValueError("input is larger than 64 MiB")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if jsonl_name:
        return "lines", [_loads_or_error(ln) for ln in lines]
    try:
        whole = json.loads(text)
    except RecursionError:
        raise ValueError("input is nested too deeply")
    except ValueError:
        if len(lines) > 1:
            parsed = [_loads_or_error(ln) for ln in lines]
            if all(not isinstance(x, _Unreadable) for x in parsed):
                return "lines", parsed
        raise ValueError("input is not JSON, a JSON array or JSON Lines")
    if isinstance(whole, list):
        return "array", whole
    return "single", [whole]


class _Unreadable:
    def __init__(self, why: str):
        self.why = why


def _loads_or_error(line: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as e:
        return _Unreadable(str(e))


def _evaluate_one(item: Any) -> dict:
    if isinstance(item, _Unreadable):
        return {"ok": False, "errors": [{"path": "", "code": "bad_json",
                                         "message": "This line is not valid JSON."}]}
    return evaluate(item)


def cmd_evaluate(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    try:
        text = _read_input(args.file, stdin)
        kind, records = _parse(text, args.file.endswith(".jsonl"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print(f"games evaluate: cannot read {args.file}: {e}", file=err)
        return 2
    results = [_evaluate_one(r) for r in records]
    if kind == "single":
        out.write(_dump(results[0]) + "\n")
    elif kind == "array":
        out.write(_dump(results) + "\n")
    else:
        for r in results:
            out.write(_dump(r) + "\n")
    return 0 if all(r.get("ok") for r in results) else 1


def cmd_simulate(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    from .simulate import simulate  # imported here: evaluate needs none of it

    try:
        for record in simulate(args.game, deals=args.deals, seed=args.seed, level=args.level,
                               players=args.players):
            out.write(_dump(record) + "\n")
    except ValueError as e:
        print(f"games simulate: {e}", file=err)
        return 2
    return 0


def cmd_verify(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    from .verify import Disagreement, Unreadable, verify_text  # imported here: evaluate needs none of it

    try:
        text = _read_input(args.file, stdin)
        if len(text) > MAX_INPUT:
            raise ValueError("input is larger than 64 MiB")
        report = verify_text(text)
    except (OSError, UnicodeDecodeError, ValueError) as e:   # Unreadable is a ValueError
        kind = "is not a tournament document" if isinstance(e, Unreadable) else "cannot be read"
        print(f"games verify: {args.file} {kind}: {e}", file=err)
        return 2
    except Disagreement as e:
        print(f"games verify: {args.file} does not verify: {e}", file=out)
        return 1
    out.write(f"games verify: {args.file} verifies\n" + "".join(f"  {line}\n" for line in report.lines()))
    return 0


def main(argv: list[str] | None = None, *, out: TextIO = sys.stdout, err: TextIO = sys.stderr,
         stdin: TextIO = sys.stdin) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description="Gupai Club rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="evaluate round records (a file, or - for standard input)")
    ev.add_argument("file")
    ev.set_defaults(run=cmd_evaluate)
    sim = sub.add_parser("simulate", help="print random legal round records as JSON Lines")
    sim.add_argument("game", choices=list(CATALOG))
    sim.add_argument("--deals", type=int, default=1)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--level", choices=SIMULATE_LEVELS, default="moves",
                     help="level of detail (Tau Ngau: hands or values; Da Ling: groups or winners)")
    sim.add_argument("--players", type=int, default=None, help="player count (default: the game's usual)")
    sim.set_defaults(run=cmd_simulate)
    ver = sub.add_parser("verify", help="check a tournament export: every deal re-evaluated, every hash link, "
                                         "the standings and the payouts (a file, or - for standard input)")
    ver.add_argument("file")
    ver.set_defaults(run=cmd_verify)
    args = parser.parse_args(argv)
    return args.run(args, out, err, stdin)
