# SPDX-License-Identifier: MIT
# Written by python/build-wheel.sh from the Makefile's VERSION.
__version__ = "0.1.0"
