# SPDX-License-Identifier: MIT
"""The `rdnacompat` console entry: execs the bundled tool with the same
arguments (its exit status is the command's)."""
import os
import sys

from . import _paths


def main():
    try:
        tool = _paths.tool()
    except OSError as e:
        print(e, file=sys.stderr)
        return 127
    os.execv(tool, ["rdnacompat"] + sys.argv[1:])
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main())
