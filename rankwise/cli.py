"""The ``rankwise`` command. Exit codes: 0 success, 1 bad data (one line on
stderr, no traceback), 2 bad usage."""

from __future__ import annotations

import argparse
import sys

from . import __version__


def _cmd_demo(args: argparse.Namespace) -> int:
    from ._demo import format_table, run_demo

    result = run_demo(args.out, random_state=args.seed)
    sys.stdout.write(format_table(result))
    sys.stdout.write(f"\nreport: {args.out}/demo.txt and {args.out}/demo.json ({result['seconds']:.1f} s)\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rankwise",
        description="Bipartite ranking: exact ranking criteria and learners.",
    )
    parser.add_argument("--version", action="version", version=f"rankwise {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="run the main job on the embedded credit-risk dataset",
        description="Fit a baseline scorer on the embedded credit data (modeldata/credit_data), "
        "evaluate every criterion on the held-out part, print the table and write it to OUT.",
        epilog="example: rankwise demo --out out",
    )
    demo.add_argument("--out", default="out", help="output directory (default: out)")
    demo.add_argument("--seed", type=int, default=0, help="random_state of the split (default: 0)")
    demo.set_defaults(func=_cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except (ValueError, TypeError, OSError, ImportError) as exc:
        sys.stderr.write(f"rankwise {args.command}: error: {exc}\n")
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
