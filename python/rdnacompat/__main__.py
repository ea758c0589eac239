# SPDX-License-Identifier: MIT
"""python -m rdnacompat [RUN-OPTIONS --] SCRIPT [ARGS] | -m MODULE [ARGS] | -c CODE [ARGS]

Runs this Python interpreter on SCRIPT (or -m MODULE, -c CODE) through the
bundled `rdnacompat run`: librdnacompat.so appended to LD_PRELOAD and the
shim configured exactly as `rdnacompat run` does, so every child process
inherits it.  RUN-OPTIONS are `rdnacompat run`'s own (--mode, --log,
--log-level, --gpu TARGET for a simulated card, ...), ended by `--`.
The exit status is the script's.
"""
import os
import sys

from . import _paths

USAGE = __doc__.split("\n\n")[0]


def build_argv(args, python=sys.executable):
    """The tool's argv for `python -m rdnacompat ARGS`; ValueError on bad usage."""
    opts = []
    if args and args[0].startswith("--"):
        if "--" not in args:
            raise ValueError("run options must end with `--` before the script")
        i = args.index("--")
        opts, args = args[:i], args[i + 1:]
    if not args:
        raise ValueError("no script given")
    if args[0] in ("-m", "-c") and len(args) < 2:
        raise ValueError("%s needs an argument" % args[0])
    return ["rdnacompat", "run"] + opts + ["--", python] + args


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    try:
        tool_argv = build_argv(args)
        tool = _paths.tool()
    except (ValueError, OSError) as e:
        print("rdnacompat: %s\nusage: %s" % (e, USAGE.strip()), file=sys.stderr)
        return 2
    os.execv(tool, tool_argv)
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main())
