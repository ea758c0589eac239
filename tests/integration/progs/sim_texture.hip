// SPDX-License-Identifier: MIT
// sim_texture.hip — a texture program for the simulated card's image
// instructions, checked against CPU values computed here:
//   - tex_linear: a 2D float texture (hipMallocArray) sampled with linear
//     filtering, normalized coordinates and clamp-to-edge (image_sample);
//   - the same kernel on a texture over pitched linear memory (hipMallocPitch,
//     hipResourceTypePitch2D: a linear-layout image);
//   - tex_point: a 2D uchar4 texture read as normalized float with point
//     filtering, unnormalized coordinates and clamp-to-edge (image_sample);
//   - img_copy: a surface read and written with surf2Dread/surf2Dwrite
//     (image_load / image_store);
//   - tex_layered: a layered 2D float texture sampled bilinearly within a
//     layer (hipMalloc3DArray with hipArrayLayered, hipMemcpy3D);
//   - tex_3d (only with "3d", not in "all"): a 3D float texture sampled
//     trilinearly; ROCR gives 3D images a pipe-XOR swizzle mode
//     (SW_4KB_S_X) that the engine refuses with a message;
//   - scale: a plain kernel (no image instruction), launched three times.
// "apis" (not in "all") launches or asks about tex_point every way HIP takes
// a host stub (<<<>>>, _spt, cooperative, ext, the multi-device lists,
// hipGetFuncBySymbol, graph kernel nodes, stream capture, the attribute and
// occupancy calls), says per way "ran, N samples right" or "refused: ERROR",
// then runs scale: a card where tex_point is held refuses every way and goes on.
// The arrays are filled with hipMemcpy2DToArray and read back with
// hipMemcpy2DFromArray: on the ROCm runtimes these are CLR's
// __amd_rocclr_copyBufferToImage / copyImageToBuffer blit kernels, image
// instructions themselves.
//
// Usage: sim_texture [all|linear|pitch|point|load|layered|plain|3d|apis]  — prints "ok NAME" per
// check and "all checks passed"; exit 1 on a mismatch, naming it.
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 13
#define H 7

#define CK(x)                                                                          \
  do {                                                                                 \
    hipError_t e_ = (x);                                                               \
    if (e_ != hipSuccess) {                                                            \
      fprintf(stderr, "FAIL %s: %s (%s:%d)\n", #x, hipGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

__global__ void tex_linear(hipTextureObject_t t, const float2 *uv, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}

__global__ void tex_point(hipTextureObject_t t, const float2 *uv, float4 *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<float4>(t, uv[i].x, uv[i].y);
}

__global__ void img_copy(hipSurfaceObject_t src, hipSurfaceObject_t dst, int w, int h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float v;
    surf2Dread(&v, src, x * (int)sizeof(float), y);
    surf2Dwrite(v * 2.0f + (float)(x - y), dst, x * (int)sizeof(float), y);
  }
}

__global__ void tex_3d(hipTextureObject_t t, const float4 *uvw, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex3D<float>(t, uvw[i].x, uvw[i].y, uvw[i].z);
}

__global__ void tex_layered(hipTextureObject_t t, const float4 *uvl, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2DLayered<float>(t, uvl[i].x, uvl[i].y, (int)uvl[i].z);
}

__global__ void scale(float *p, float k, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= k;
}

static float texel(int x, int y) { return (float)(x * 3 + y * 17) * 0.25f - 5.0f; }

// Clamp-to-edge bilinear lookup of the W x H texel grid at normalized (u, v),
// the texture-sampling rule of the HIP/CUDA programming guides: x = u * W -
// 0.5, weights from the fraction.  The hardware keeps the fraction to 8 bits
// (1/256); the check allows that (see TOL_LINEAR).
static float ref_linear(const float *img, float u, float v)
{
  float x = u * W - 0.5f, y = v * H - 0.5f;
  float fx = floorf(x), fy = floorf(y);
  float a = x - fx, b = y - fy;
  int x0 = (int)fx, y0 = (int)fy;
  float s = 0;
  for (int dy = 0; dy < 2; dy++)
    for (int dx = 0; dx < 2; dx++) {
      int xx = x0 + dx, yy = y0 + dy;
      xx = xx < 0 ? 0 : xx >= W ? W - 1 : xx;
      yy = yy < 0 ? 0 : yy >= H ? H - 1 : yy;
      s += (dx ? a : 1 - a) * (dy ? b : 1 - b) * img[yy * W + xx];
    }
  return s;
}

// Texel values span [-5, 11.5]; an 8-bit weight fraction moves a result by
// at most (1/256) * (largest step between neighbours, 17 * 0.25) per axis.
#define TOL_LINEAR (2.0f * 4.25f / 256.0f + 1e-4f)

static hipArray_t make_array(const hipChannelFormatDesc *cd, const void *host, size_t pitch, unsigned flags)
{
  hipArray_t a;
  CK(hipMallocArray(&a, cd, W, H, flags));
  CK(hipMemcpy2DToArray(a, 0, 0, host, pitch, pitch, H, hipMemcpyHostToDevice));
  return a;
}

static hipTextureObject_t make_tex(hipArray_t a, hipTextureFilterMode f, hipTextureAddressMode am,
                                   hipTextureReadMode rm, int norm)
{
  hipResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = a;
  hipTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = am;
  td.filterMode = f;
  td.readMode = rm;
  td.normalizedCoords = norm;
  hipTextureObject_t t;
  CK(hipCreateTextureObject(&t, &rd, &td, NULL));
  return t;
}

static int check_linear(void)
{
  float img[W * H];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      img[y * W + x] = texel(x, y);
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t a = make_array(&cd, img, W * sizeof(float), 0);
  hipTextureObject_t t = make_tex(a, hipFilterModeLinear, hipAddressModeClamp, hipReadModeElementType, 1);
  enum { N = 64 };
  float2 uv[N];
  for (int i = 0; i < N; i++) // inside, on texel centres, between them, and past both edges
    uv[i] = make_float2(-0.1f + 1.2f * (float)((i * 37) % N) / N, -0.05f + 1.1f * (float)((i * 11) % N) / N);
  float2 *duv;
  float *dout, out[N];
  CK(hipMalloc(&duv, sizeof uv));
  CK(hipMalloc(&dout, sizeof out));
  CK(hipMemcpy(duv, uv, sizeof uv, hipMemcpyHostToDevice));
  tex_linear<<<1, N>>>(t, duv, dout, N);
  CK(hipGetLastError());
  CK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    float r = ref_linear(img, uv[i].x, uv[i].y);
    if (!(fabsf(out[i] - r) <= TOL_LINEAR)) {
      fprintf(stderr, "FAIL linear: uv=(%g,%g) got %.6f want %.6f (tol %g)\n", uv[i].x, uv[i].y, out[i], r,
              TOL_LINEAR);
      return 1;
    }
  }
  CK(hipDestroyTextureObject(t));
  CK(hipFreeArray(a));
  CK(hipFree(duv));
  CK(hipFree(dout));
  printf("ok linear: %d bilinear samples of a %dx%d float texture (clamp, normalized)\n", N, W, H);
  return 0;
}

// A texture over pitched linear memory (hipMallocPitch, hipResourceTypePitch2D):
// the runtime makes a linear-layout image of the buffer, rows pitch bytes
// apart; sampled bilinearly like check_linear.
static int check_pitch(void)
{
  float img[W * H];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      img[y * W + x] = texel(x, y);
  void *d;
  size_t pitch;
  CK(hipMallocPitch(&d, &pitch, W * sizeof(float), H));
  CK(hipMemcpy2D(d, pitch, img, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  hipResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = hipResourceTypePitch2D;
  rd.res.pitch2D.devPtr = d;
  rd.res.pitch2D.desc = hipCreateChannelDesc<float>();
  rd.res.pitch2D.width = W;
  rd.res.pitch2D.height = H;
  rd.res.pitch2D.pitchInBytes = pitch;
  hipTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
  td.filterMode = hipFilterModeLinear;
  td.readMode = hipReadModeElementType;
  td.normalizedCoords = 1;
  hipTextureObject_t t;
  CK(hipCreateTextureObject(&t, &rd, &td, NULL));
  enum { N = 64 };
  float2 uv[N];
  for (int i = 0; i < N; i++)
    uv[i] = make_float2(-0.1f + 1.2f * (float)((i * 29) % N) / N, -0.05f + 1.1f * (float)((i * 13) % N) / N);
  float2 *duv;
  float *dout, out[N];
  CK(hipMalloc(&duv, sizeof uv));
  CK(hipMalloc(&dout, sizeof out));
  CK(hipMemcpy(duv, uv, sizeof uv, hipMemcpyHostToDevice));
  tex_linear<<<1, N>>>(t, duv, dout, N);
  CK(hipGetLastError());
  CK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    float r = ref_linear(img, uv[i].x, uv[i].y);
    if (!(fabsf(out[i] - r) <= TOL_LINEAR)) {
      fprintf(stderr, "FAIL pitch: uv=(%g,%g) got %.6f want %.6f (tol %g)\n", uv[i].x, uv[i].y, out[i], r, TOL_LINEAR);
      return 1;
    }
  }
  CK(hipDestroyTextureObject(t));
  CK(hipFree(d));
  CK(hipFree(duv));
  CK(hipFree(dout));
  printf("ok pitch: %d bilinear samples of a %dx%d float texture over pitched memory (pitch %zu bytes)\n", N, W, H,
         pitch);
  return 0;
}

// The point-sample setup of check_point, launched by `launch` (one of the
// ways HIP takes a host stub: LAUNCH_*); 0 when the launch ran and every
// sample checks right, 2 when the runtime refused it (said on stdout with
// its error), 1 on a wrong sample.
enum launch_api {
  LAUNCH_CHEVRON, LAUNCH_SPT, LAUNCH_COOPERATIVE, LAUNCH_EXT, LAUNCH_COOP_MULTI, LAUNCH_EXT_MULTI,
  LAUNCH_FUNC_BY_SYMBOL, LAUNCH_GRAPH_NODE, LAUNCH_GRAPH_ADD_NODE, LAUNCH_CAPTURE, LAUNCH_SET_ATTRIBUTE,
  LAUNCH_CACHE_CONFIG, LAUNCH_GET_ATTRIBUTES, LAUNCH_OCCUPANCY, LAUNCH_POTENTIAL, LAUNCH_N
};
static const char *const launch_names[LAUNCH_N] = {
  "hipLaunchKernel (<<<>>>)", "hipLaunchKernel_spt", "hipLaunchCooperativeKernel", "hipExtLaunchKernel",
  "hipLaunchCooperativeKernelMultiDevice", "hipExtLaunchMultiKernelMultiDevice",
  "hipGetFuncBySymbol + hipModuleLaunchKernel", "hipGraphAddKernelNode", "hipGraphAddNode",
  "stream capture of <<<>>>", "hipFuncSetAttribute", "hipFuncSetCacheConfig", "hipFuncGetAttributes",
  "hipOccupancyMaxActiveBlocksPerMultiprocessor", "hipOccupancyMaxPotentialBlockSize"
};
extern "C" hipError_t hipLaunchKernel_spt(const void *f, dim3 grid, dim3 block, void **args, size_t shm,
                                          hipStream_t stream);

// Launch tex_point<<<1, n>>>(t, duv, dout, n) the way `how` says; the
// queries (attributes, occupancy) ask about the stub and then launch with
// <<<>>> when they succeed.
static hipError_t launch_point(enum launch_api how, hipTextureObject_t t, float2 *duv, float4 *dout, int n)
{
  const void *f = reinterpret_cast<const void *>(&tex_point);
  void *args[] = { &t, &duv, &dout, &n };
  hipError_t e = hipSuccess;
  switch (how) {
  case LAUNCH_CHEVRON:
    tex_point<<<1, n>>>(t, duv, dout, n);
    return hipGetLastError();
  case LAUNCH_SPT:
    return hipLaunchKernel_spt(f, dim3(1), dim3(n), args, 0, 0);
  case LAUNCH_COOPERATIVE:
    return hipLaunchCooperativeKernel(f, dim3(1), dim3(n), args, 0, 0);
  case LAUNCH_EXT:
    return hipExtLaunchKernel(f, dim3(1), dim3(n), args, 0, 0, nullptr, nullptr, 0);
  case LAUNCH_COOP_MULTI:
  case LAUNCH_EXT_MULTI: {
    hipStream_t s;
    CK(hipStreamCreate(&s));
    hipLaunchParams lp;
    lp.func = const_cast<void *>(f);
    lp.gridDim = dim3(1);
    lp.blockDim = dim3(n);
    lp.args = args;
    lp.sharedMem = 0;
    lp.stream = s;
    e = how == LAUNCH_COOP_MULTI ? hipLaunchCooperativeKernelMultiDevice(&lp, 1, 0)
                                 : hipExtLaunchMultiKernelMultiDevice(&lp, 1, 0);
    if (e == hipSuccess)
      e = hipStreamSynchronize(s);
    CK(hipStreamDestroy(s));
    return e;
  }
  case LAUNCH_FUNC_BY_SYMBOL: {
    hipFunction_t fn;
    if ((e = hipGetFuncBySymbol(&fn, f)) != hipSuccess)
      return e;
    return hipModuleLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, 0, args, nullptr);
  }
  case LAUNCH_GRAPH_NODE:
  case LAUNCH_GRAPH_ADD_NODE:
  case LAUNCH_CAPTURE: {
    hipGraph_t g;
    hipStream_t s;
    CK(hipStreamCreate(&s));
    hipKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = const_cast<void *>(f);
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(n);
    kp.kernelParams = args;
    hipGraphNode_t node;
    if (how == LAUNCH_CAPTURE) {
      CK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
      tex_point<<<1, n, 0, s>>>(t, duv, dout, n);
      e = hipGetLastError();
      hipError_t e2 = hipStreamEndCapture(s, &g);
      if (e == hipSuccess)
        e = e2;
    } else {
      CK(hipGraphCreate(&g, 0));
      if (how == LAUNCH_GRAPH_NODE) {
        e = hipGraphAddKernelNode(&node, g, nullptr, 0, &kp);
      } else {
        // raw storage: the union's dim3 members make its C++ constructor deleted
        alignas(hipGraphNodeParams) unsigned char raw[sizeof(hipGraphNodeParams)] = {};
        hipGraphNodeParams *np = reinterpret_cast<hipGraphNodeParams *>(raw);
        np->type = hipGraphNodeTypeKernel;
        memcpy(&np->kernel, &kp, sizeof kp);
        e = hipGraphAddNode(&node, g, nullptr, 0, np);
      }
    }
    if (e == hipSuccess) {
      hipGraphExec_t x;
      e = hipGraphInstantiate(&x, g, nullptr, nullptr, 0);
      if (e == hipSuccess) {
        e = hipGraphLaunch(x, s);
        if (e == hipSuccess)
          e = hipStreamSynchronize(s);
        CK(hipGraphExecDestroy(x));
      }
    }
    if (how != LAUNCH_CAPTURE || g)
      (void)hipGraphDestroy(g);
    CK(hipStreamDestroy(s));
    return e;
  }
  case LAUNCH_SET_ATTRIBUTE:
    e = hipFuncSetAttribute(f, hipFuncAttributeMaxDynamicSharedMemorySize, 0);
    break;
  case LAUNCH_CACHE_CONFIG:
    e = hipFuncSetCacheConfig(f, hipFuncCachePreferNone);
    break;
  case LAUNCH_GET_ATTRIBUTES: {
    hipFuncAttributes fa;
    e = hipFuncGetAttributes(&fa, f);
    break;
  }
  case LAUNCH_OCCUPANCY: {
    int blocks = 0;
    e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, n, 0);
    break;
  }
  case LAUNCH_POTENTIAL: {
    int grid = 0, block = 0;
    e = hipOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0);
    break;
  }
  default:
    return hipErrorInvalidValue;
  }
  if (e != hipSuccess)
    return e;
  tex_point<<<1, n>>>(t, duv, dout, n);
  return hipGetLastError();
}

static int point_via(enum launch_api how, int quiet)
{
  unsigned char img[W * H * 4];
  for (int i = 0; i < W * H * 4; i++)
    img[i] = (unsigned char)(i * 29 + 7);
  hipChannelFormatDesc cd = hipCreateChannelDesc<uchar4>();
  hipArray_t a = make_array(&cd, img, W * 4, 0);
  hipTextureObject_t t = make_tex(a, hipFilterModePoint, hipAddressModeClamp, hipReadModeNormalizedFloat, 0);
  enum { N = 64 };
  float2 uv[N];
  for (int i = 0; i < N; i++) // unnormalized texel coordinates, some outside (clamped)
    uv[i] = make_float2(-2.0f + (float)((i * 5) % 18) * 0.9f, -1.0f + (float)((i * 3) % 10) * 0.95f);
  float2 *duv;
  float4 *dout, out[N];
  CK(hipMalloc(&duv, sizeof uv));
  CK(hipMalloc(&dout, sizeof out));
  CK(hipMemcpy(duv, uv, sizeof uv, hipMemcpyHostToDevice));
  CK(hipMemset(dout, 0, sizeof out));
  hipError_t e = launch_point(how, t, duv, dout, N);
  int rc = 0;
  if (e != hipSuccess) {
    printf("api %s: refused: %s\n", launch_names[how], hipGetErrorName(e));
    (void)hipGetLastError();
    rc = 2;
  } else {
    CK(hipDeviceSynchronize());
    CK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
    for (int i = 0; i < N && !rc; i++) {
      int x = (int)floorf(uv[i].x), y = (int)floorf(uv[i].y);
      x = x < 0 ? 0 : x >= W ? W - 1 : x;
      y = y < 0 ? 0 : y >= H ? H - 1 : y;
      const unsigned char *p = img + (y * W + x) * 4;
      float r[4] = { p[0] / 255.0f, p[1] / 255.0f, p[2] / 255.0f, p[3] / 255.0f };
      float g[4] = { out[i].x, out[i].y, out[i].z, out[i].w };
      for (int c = 0; c < 4; c++)
        if (g[c] != r[c]) {
          fprintf(stderr, "FAIL point (%s): uv=(%g,%g) component %d got %.7f want %.7f\n", launch_names[how],
                  uv[i].x, uv[i].y, c, g[c], r[c]);
          rc = 1;
          break;
        }
    }
    if (!rc && !quiet)
      printf("api %s: ran, %d samples right\n", launch_names[how], N);
  }
  CK(hipDestroyTextureObject(t));
  CK(hipFreeArray(a));
  CK(hipFree(duv));
  CK(hipFree(dout));
  return rc;
}

static int check_point(void)
{
  int rc = point_via(LAUNCH_CHEVRON, 1);
  if (rc == 2)
    fprintf(stderr, "FAIL hipGetLastError(): invalid device function\n");
  if (rc)
    return 1;
  printf("ok point: %d point samples of a %dx%d uchar4 texture (normalized float, clamp, texel coordinates)\n", 64, W,
         H);
  return 0;
}

// Every way of launching or asking about tex_point; then the plain kernel.
static int check_apis(void)
{
  int bad = 0;
  for (int how = 0; how < LAUNCH_N; how++)
    bad |= point_via((enum launch_api)how, 0) == 1;
  printf("apis: every way tried, the process goes on\n");
  return bad;
}

static int check_load(void)
{
  float img[W * H], back[W * H];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      img[y * W + x] = texel(x, y);
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t a = make_array(&cd, img, W * sizeof(float), hipArraySurfaceLoadStore);
  hipArray_t b = make_array(&cd, img, W * sizeof(float), hipArraySurfaceLoadStore);
  hipResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = a;
  hipSurfaceObject_t sa, sb;
  CK(hipCreateSurfaceObject(&sa, &rd));
  rd.res.array.array = b;
  CK(hipCreateSurfaceObject(&sb, &rd));
  img_copy<<<dim3(2, 2), dim3(8, 4)>>>(sa, sb, W, H);
  CK(hipGetLastError());
  CK(hipMemcpy2DFromArray(back, W * sizeof(float), b, 0, 0, W * sizeof(float), H, hipMemcpyDeviceToHost));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      float r = img[y * W + x] * 2.0f + (float)(x - y);
      if (back[y * W + x] != r) {
        fprintf(stderr, "FAIL load: (%d,%d) got %g want %g\n", x, y, back[y * W + x], r);
        return 1;
      }
    }
  CK(hipDestroySurfaceObject(sa));
  CK(hipDestroySurfaceObject(sb));
  CK(hipFreeArray(a));
  CK(hipFreeArray(b));
  printf("ok load: image_load/image_store over a %dx%d float surface, copied in and out by the runtime\n", W, H);
  return 0;
}

// 3D (D x H x W = 5 x 6 x 70) and layered 2D (4 layers of 70 x 6) float
// textures, filled by hipMemcpy3D (the runtime's image blits), sampled with
// linear filtering (trilinear for 3D, bilinear within the layer) and clamp.
#define W3 70
#define H3 6
#define D3 5
static float texel3(int x, int y, int z) { return (float)((x * 7 + y * 13 + z * 29) % 97) * 0.125f - 3.0f; }

static float ref3(float u, float v, float w, int layered, int layer)
{
  float x = u * W3 - 0.5f, y = v * H3 - 0.5f, z = w * D3 - 0.5f;
  float fx = floorf(x), fy = floorf(y), fz = floorf(z);
  float a = x - fx, b = y - fy, c = z - fz;
  float s = 0;
  for (int dz = 0; dz < (layered ? 1 : 2); dz++)
    for (int dy = 0; dy < 2; dy++)
      for (int dx = 0; dx < 2; dx++) {
        int xx = (int)fx + dx, yy = (int)fy + dy, zz = layered ? layer : (int)fz + dz;
        xx = xx < 0 ? 0 : xx >= W3 ? W3 - 1 : xx;
        yy = yy < 0 ? 0 : yy >= H3 ? H3 - 1 : yy;
        zz = zz < 0 ? 0 : zz >= D3 ? D3 - 1 : zz;
        float wgt = (dx ? a : 1 - a) * (dy ? b : 1 - b) * (layered ? 1 : (dz ? c : 1 - c));
        s += wgt * texel3(xx, yy, zz);
      }
  return s;
}

static int check_3d(int layered)
{
  int depth = layered ? 4 : D3;
  float *img = (float *)malloc(sizeof(float) * W3 * H3 * depth);
  for (int z = 0; z < depth; z++)
    for (int y = 0; y < H3; y++)
      for (int x = 0; x < W3; x++)
        img[(z * H3 + y) * W3 + x] = texel3(x, y, z);
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t a;
  CK(hipMalloc3DArray(&a, &cd, make_hipExtent(W3, H3, depth), layered ? hipArrayLayered : 0));
  hipMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_hipPitchedPtr(img, W3 * sizeof(float), W3, H3);
  p.dstArray = a;
  p.extent = make_hipExtent(W3, H3, depth);
  p.kind = hipMemcpyHostToDevice;
  CK(hipMemcpy3D(&p));
  hipTextureObject_t t = make_tex(a, hipFilterModeLinear, hipAddressModeClamp, hipReadModeElementType, 1);
  enum { N = 64 };
  float4 q[N];
  for (int i = 0; i < N; i++)
    q[i] = make_float4(-0.05f + 1.1f * (float)((i * 37) % N) / N, -0.05f + 1.1f * (float)((i * 11) % N) / N,
                       layered ? (float)(i % 4) : -0.05f + 1.1f * (float)((i * 23) % N) / N, 0);
  float4 *dq;
  float *dout, out[N];
  CK(hipMalloc(&dq, sizeof q));
  CK(hipMalloc(&dout, sizeof out));
  CK(hipMemcpy(dq, q, sizeof q, hipMemcpyHostToDevice));
  if (layered)
    tex_layered<<<1, N>>>(t, dq, dout, N);
  else
    tex_3d<<<1, N>>>(t, dq, dout, N);
  CK(hipGetLastError());
  CK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  // the largest step between neighbours is 96 * 0.125 = 12 per axis: one 1/256 weight step each
  float tol = 3.0f * 12.0f / 256.0f + 1e-4f;
  for (int i = 0; i < N; i++) {
    float r = ref3(q[i].x, q[i].y, q[i].z, layered, (int)q[i].z);
    if (!(fabsf(out[i] - r) <= tol)) {
      fprintf(stderr, "FAIL %s: (%g,%g,%g) got %.6f want %.6f (tol %g)\n", layered ? "layered" : "3d", q[i].x, q[i].y,
              q[i].z, out[i], r, tol);
      return 1;
    }
  }
  CK(hipDestroyTextureObject(t));
  CK(hipFreeArray(a));
  CK(hipFree(dq));
  CK(hipFree(dout));
  free(img);
  if (layered)
    printf("ok layered: %d bilinear samples in 4 layers of a %dx%d float texture (clamp, normalized)\n", N, W3, H3);
  else
    printf("ok 3d: %d trilinear samples of a %dx%dx%d float texture (clamp, normalized)\n", N, W3, H3, D3);
  return 0;
}

static int check_plain(void)
{
  enum { N = 1000 };
  float h[N];
  for (int i = 0; i < N; i++)
    h[i] = (float)i;
  float *d;
  CK(hipMalloc(&d, sizeof h));
  CK(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice));
  // three launches of one kernel (x 1.5, x 2, x 0.5: exact in float)
  const float k[3] = { 1.5f, 2.0f, 0.5f };
  for (int j = 0; j < 3; j++) {
    scale<<<(N + 255) / 256, 256>>>(d, k[j], N);
    CK(hipGetLastError());
  }
  CK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    if (h[i] != (float)i * 1.5f) {
      fprintf(stderr, "FAIL plain: [%d] got %g\n", i, h[i]);
      return 1;
    }
  CK(hipFree(d));
  printf("ok plain: a kernel without image instructions, launched 3 times\n");
  return 0;
}

int main(int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "all";
  int all = !strcmp(what, "all"), bad = 0;
  if (all || !strcmp(what, "plain"))
    bad |= check_plain();
  if (all || !strcmp(what, "load"))
    bad |= check_load();
  if (all || !strcmp(what, "point"))
    bad |= check_point();
  if (!strcmp(what, "apis")) // not in "all": each way a host stub reaches HIP, refused ones said
    bad |= check_apis() | check_plain();
  if (all || !strcmp(what, "linear"))
    bad |= check_linear();
  if (all || !strcmp(what, "pitch"))
    bad |= check_pitch();
  if (!strcmp(what, "3d")) // not in "all": ROCR lays 3D images out in a mode the engine refuses
    bad |= check_3d(0);
  if (all || !strcmp(what, "layered"))
    bad |= check_3d(1);
  if (bad)
    return 1;
  printf("all checks passed\n");
  return 0;
}
