// SPDX-License-Identifier: MIT
//
// fb_ext.cu — PyTorch extension (torch.utils.cpp_extension, nvcc) that
// compiles rdnacompat's fallback kernels from the very same sources as the
// AMD bundle (shim/fallback/*.hip through fb_port.h's nvcc branch) and
// launches them the way ggml's launch_fattn does, with ggml's argument list.
// Driven by tests/numerics/run_numerics.py on an NVIDIA card; no AMD result
// comes from here.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <optional>
#include <vector>

#include "../../shim/fallback/fattn_tile.hip"
#include "../../shim/fallback/fattn_combine.hip"

typedef void (*tile_fn)(RDC_FB_TILE_PARAMS);

static tile_fn pick(int dv)
{
	switch (dv) {
	case 40: return rdnacompat_fb_fattn_tile_dv40;
	case 64: return rdnacompat_fb_fattn_tile_dv64;
	case 72: return rdnacompat_fb_fattn_tile_dv72;
	case 80: return rdnacompat_fb_fattn_tile_dv80;
	case 96: return rdnacompat_fb_fattn_tile_dv96;
	case 112: return rdnacompat_fb_fattn_tile_dv112;
	case 128: return rdnacompat_fb_fattn_tile_dv128;
	case 256: return rdnacompat_fb_fattn_tile_dv256;
	case 512: return rdnacompat_fb_fattn_tile_dv512;
	}
	return nullptr;
}

static const char *ptr_or_null(const std::optional<torch::Tensor> &t)
{
	return t.has_value() && t->defined() && t->numel() > 0 ? (const char *)t->data_ptr() : nullptr;
}

// ints: ne00 ne01 ne02 ne03 nb01 nb02 nb03 ne10 ne11 ne12 ne13 nb11 nb12 nb13
//       nb21 nb22 nb23 ne31 ne32 ne33 nb31 nb32 nb33 n_head_log2
// floats: scale max_bias m0 m1 logit_softcap
// launch: gx gy gz bx by bz
void fb_tile(int64_t dv, torch::Tensor Q, torch::Tensor K, torch::Tensor V, std::optional<torch::Tensor> mask,
	  std::optional<torch::Tensor> sinks, std::optional<torch::Tensor> kvmax, torch::Tensor dst,
	  std::optional<torch::Tensor> meta, std::vector<int64_t> iv, std::vector<double> fv,
	  std::vector<int64_t> launch)
{
	tile_fn f = pick((int)dv);
	TORCH_CHECK(f, "no fallback for DV=", dv);
	TORCH_CHECK(iv.size() == 24 && fv.size() == 5 && launch.size() == 6, "bad argument vectors");
	rdc_fb_u3 ne01 = {0u, 0u, (unsigned)iv[1]};
	dim3 grid((unsigned)launch[0], (unsigned)launch[1], (unsigned)launch[2]);
	dim3 block((unsigned)launch[3], (unsigned)launch[4], (unsigned)launch[5]);
	auto stream = at::cuda::getCurrentCUDAStream();
	f<<<grid, block, 0, stream>>>(
		(const char *)Q.data_ptr(), (const char *)K.data_ptr(), (const char *)V.data_ptr(), ptr_or_null(mask),
		ptr_or_null(sinks), (const int *)ptr_or_null(kvmax), (float *)dst.data_ptr(),
		(rdc_fb_f2 *)ptr_or_null(meta), (float)fv[0], (float)fv[1], (float)fv[2], (float)fv[3],
		(uint32_t)iv[23], (float)fv[4], (int32_t)iv[0], ne01, (int32_t)iv[2], (int32_t)iv[3],
		(int32_t)iv[4], (int32_t)iv[5], (int32_t)iv[6], (int32_t)iv[7], (int32_t)iv[8], (int32_t)iv[9],
		(int32_t)iv[10], (int32_t)iv[11], (int32_t)iv[12], (int64_t)iv[13], (int32_t)iv[14],
		(int32_t)iv[15], (int64_t)iv[16], (int32_t)iv[17], (int32_t)iv[18], (int32_t)iv[19],
		(int32_t)iv[20], (int32_t)iv[21], (int64_t)iv[22]);
	C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// grid (ne01, ne02, ne03), block (D): ggml's launch of flash_attn_combine_results<D>
void fb_combine(torch::Tensor parts, torch::Tensor meta, torch::Tensor dst, int64_t P, int64_t ne01, int64_t ne02,
	     int64_t ne03, int64_t D)
{
	auto stream = at::cuda::getCurrentCUDAStream();
	rdnacompat_fb_fattn_combine<<<dim3((unsigned)ne01, (unsigned)ne02, (unsigned)ne03), dim3((unsigned)D),
				      (size_t)P * 8, stream>>>((const float *)parts.data_ptr(),
							       (const rdc_fb_f2 *)meta.data_ptr(),
							       (float *)dst.data_ptr(), (int)P);
	C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
	m.def("tile", &fb_tile, "rdnacompat_fb_fattn_tile_dv<DV> with ggml's ABI");
	m.def("combine", &fb_combine, "rdnacompat_fb_fattn_combine with ggml's ABI");
}
