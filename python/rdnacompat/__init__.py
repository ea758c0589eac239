# SPDX-License-Identifier: MIT
"""rdnacompat: run ROCm programs on AMD Radeon cards ROCm does not support.

This wheel bundles the rdnacompat tool, its preload shim (librdnacompat.so),
the simulator of AMD cards and the compatibility tables.  From Python:

  rdnacompat.status()   whether the shim is loaded in this process, the
                        configuration it read, and what it decided (its log
                        lines of this process, when it logs to a file)
  python -m rdnacompat SCRIPT [ARGS]   run SCRIPT under the shim
  rdnacompat ...        the tool (console entry)

The shim is a preload library: it must be in LD_PRELOAD before the process
starts (python -m rdnacompat, `rdnacompat run`); importing this module does
not load it.
"""
import dataclasses
import json
import os
import re
from typing import List, Optional

from ._paths import SHIM, SIM, TABLES, TOOL
from ._version import __version__

__all__ = ["status", "Status", "SHIM", "SIM", "TABLES", "TOOL", "__version__"]

# The shim's own variables (shim/hooks/config.c) as it reads them at start-up.
_CONFIG_VARS = ("RDNACOMPAT_MODE", "RDNACOMPAT_LOG", "RDNACOMPAT_LOG_FILE", "RDNACOMPAT_LOG_FORMAT",
                "RDNACOMPAT_SPOOF_FOR", "RDNACOMPAT_OPT_IN", "RDNACOMPAT_CACHE", "RDNACOMPAT_FALLBACK",
                "RDNACOMPAT_SIM_GPUS")


@dataclasses.dataclass
class Status:
    loaded: bool                 # librdnacompat.so is mapped in this process
    shim: Optional[str]          # the mapped file, or None
    mode: str                    # RDNACOMPAT_MODE as the shim reads it (default map)
    config: dict                 # the RDNACOMPAT_* variables set in this process
    log_file: Optional[str]      # where the shim logs (None: stderr)
    decisions: Optional[List[str]]  # this process's log lines; None when not readable
    note: str                    # how to read the above

    def __str__(self):
        if not self.loaded:
            return "rdnacompat: the shim is not loaded in this process (%s)" % self.note
        lines = ["rdnacompat: the shim is loaded: %s (mode %s)" % (self.shim, self.mode)]
        if self.decisions is None:
            lines.append("  " + self.note)
        elif not self.decisions:
            lines.append("  no log lines from this process yet (%s)" % self.log_file)
        else:
            lines.append("  its log lines from this process (%s):" % self.log_file)
            lines += ["    " + d for d in self.decisions]
        return "\n".join(lines)


def _mapped_shim():
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            for line in f:
                path = line.rstrip("\n").split(None, 5)[5:] or [""]
                if os.path.basename(path[0]) == "librdnacompat.so":
                    return path[0]
    except OSError:
        pass
    return None


def _json_line(d):
    """A JSON log record as the text format writes it: 'LEVEL: EVENT: k=v ...'."""
    level, event = d.pop("level", "?"), d.pop("event", None)
    d.pop("pid", None)
    kv = " ".join("%s=%s" % (k, json.dumps(v) if isinstance(v, str) and (" " in v or not v) else v)
                  for k, v in d.items())
    return "%s: %s%s" % (level, event + ": " if event else "", kv)


def _log_lines(path, pid):
    """This process's lines in the shim's log (text: 'rdnacompat[PID]: ...',
    json: {"pid":PID,...}); None when the file cannot be read."""
    out = []
    pfx = "rdnacompat[%d]: " % pid
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith(pfx):
                    out.append(line[len(pfx):])
                elif line.startswith("{") and re.match(r'\{"pid":%d[,}]' % pid, line):
                    try:
                        out.append(_json_line(json.loads(line)))
                    except (ValueError, AttributeError):
                        out.append(line)
    except OSError:
        return None
    return out


def status() -> Status:
    """Whether librdnacompat.so is loaded in this process (from
    /proc/self/maps), the configuration it read (its RDNACOMPAT_* variables)
    and what it decided: its log lines of this process when it logs to a
    file (`python -m rdnacompat --log FILE -- SCRIPT`, RDNACOMPAT_LOG_FILE);
    when it logs to stderr its decisions went there and are not kept."""
    shim = _mapped_shim()
    config = {k: os.environ[k] for k in _CONFIG_VARS if k in os.environ}
    mode = (config.get("RDNACOMPAT_MODE") or "map").lower()
    log_file = config.get("RDNACOMPAT_LOG_FILE") or None
    decisions = None
    if not shim:
        note = "start Python with `python -m rdnacompat SCRIPT` or `rdnacompat run -- python ...`"
    elif log_file:
        decisions = _log_lines(log_file, os.getpid())
        note = ("its log %s cannot be read" % log_file) if decisions is None else "its log: %s" % log_file
    else:
        note = ("the shim logs to stderr, so its decisions are not kept; to keep them run "
                "`python -m rdnacompat --log FILE [--log-level info] -- SCRIPT`")
    return Status(loaded=bool(shim), shim=shim, mode=mode, config=config, log_file=log_file,
                  decisions=decisions, note=note)
