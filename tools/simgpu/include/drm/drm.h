/* SPDX-License-Identifier: MIT */
/*
 * drm/drm.h — Debian's linux-libc-dev ships <linux/kfd_ioctl.h>, which
 * includes <drm/drm.h>, but leaves the DRM uapi headers to libdrm-dev
 * (/usr/include/libdrm/drm.h, the same kernel header).  This forwards there.
 */
#include <libdrm/drm.h>
