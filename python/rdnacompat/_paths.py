# SPDX-License-Identifier: MIT
"""Where the wheel's bundled files are.

_bundled/ mirrors an installed prefix (bin/, libexec/rdnacompat/, lib/,
lib/rdnacompat/sim/, share/rdnacompat/tables/), so the bundled tool finds its
shim, simulator and tables relative to its own executable as it does after
`make install` (tools/rdnacompat/tool_util.c, rdc_find_shipped).  TOOL is the
front end (tools/front/), which runs `run` itself and execs
libexec/rdnacompat/rdnacompat-tool for the rest.
"""
import os

BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bundled")
TOOL = os.path.join(BUNDLED, "bin", "rdnacompat")
SHIM = os.path.join(BUNDLED, "lib", "librdnacompat.so")
SIM = os.path.join(BUNDLED, "lib", "rdnacompat", "sim", "librdnacompat-sim.so")
TABLES = os.path.join(BUNDLED, "share", "rdnacompat", "tables")


def tool():
    """The bundled tool's path; raises FileNotFoundError with the reason."""
    if not os.path.isfile(TOOL):
        raise FileNotFoundError("rdnacompat: the bundled tool is missing: %s (reinstall the wheel)" % TOOL)
    if not os.access(TOOL, os.X_OK):
        raise PermissionError("rdnacompat: the bundled tool is not executable: %s" % TOOL)
    return TOOL
