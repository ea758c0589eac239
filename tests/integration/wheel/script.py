# SPDX-License-Identifier: MIT
# script.py LIB OUT — run by tests/integration/91-wheel.sh as
# `python -m rdnacompat --gpu gfx1031 --log LOG --log-level info -- script.py`:
# loads the gfx1030-only HIP library LIB with ctypes, runs its kernel on the
# simulated card, writes rdnacompat.status() and a child process's view of
# it as JSON to OUT.
import ctypes
import dataclasses
import json
import subprocess
import sys

import rdnacompat

lib, out = sys.argv[1], sys.argv[2]
before = rdnacompat.status()
bad = ctypes.CDLL(lib).rdc_axpy(4096)
after = rdnacompat.status()
child = subprocess.run([sys.executable, "-c", "import rdnacompat; print(rdnacompat.status().loaded)"],
                       capture_output=True, text=True)
print(after)
json.dump({"argv": sys.argv[1:], "bad": bad, "before": dataclasses.asdict(before),
           "after": dataclasses.asdict(after), "child_loaded": child.stdout.strip(),
           "child_err": child.stderr[-500:]}, open(out, "w"), indent=1)
