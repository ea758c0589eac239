// SPDX-License-Identifier: MIT
//
// fallback_kernels.hip — the one translation unit build-bundle.sh compiles per
// target: every fallback kernel in a single code object with a single
// NT_AMDGPU_METADATA note (linking separately compiled objects would leave one
// note per object, and loaders read only one).
#include "fattn_tile.hip"
#include "fattn_combine.hip"
