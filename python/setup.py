# SPDX-License-Identifier: MIT
# setup.py — only what pyproject.toml cannot say: the wheel carries native
# binaries built on this machine (x86-64 Debian, its glibc), so it is tagged
# py3-none-linux_<arch> — not manylinux, which would promise a build against
# the manylinux baseline this build does not follow.
import sysconfig

from setuptools import setup
from setuptools.dist import Distribution
from wheel.bdist_wheel import bdist_wheel


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        return "py3", "none", plat


setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
