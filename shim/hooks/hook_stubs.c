/* SPDX-License-Identifier: MIT */
/*
 * hook_stubs.c — the runtime's other entry points that take a host stub (a
 * kernel's address in the program, the key `<<<>>>` launches by): the
 * per-thread-stream, cooperative and extended launches, hipLaunchByPtr, the
 * attribute setters, hipGetFuncBySymbol and kernel nodes of graphs.
 * hipLaunchKernel and the occupancy/attribute queries are in
 * hook_kernels.c and hook_occupancy.c; all of them ask rdc_stub_refused.
 *
 * Why they are hooked at all: a kernel refused on a device — a held kernel
 * (hold.c, route.c rdc_route_hold) or one with a `deny` rule — must get
 * HIP's own answer for a function it does not know.  For a held kernel the
 * runtime cannot give that answer itself: its name was changed in the code
 * object the device got, and CLR stops the process when a registered stub's
 * kernel is missing from the object ("Cannot find Symbol with name",
 * hip_global.cpp DeviceFunc).  So each hook below calls the real function
 * with the stub replaced by NULL — CLR answers hipErrorInvalidDeviceFunction
 * (or hipErrorInvalidValue for a graph node) and records it as the thread's
 * last error, as for any unknown function (clr hip_module.cpp, hip_graph.cpp).
 *
 * The device is the one HIP launches on: the stream's
 * (hip::Stream::DeviceId in ihipLaunchKernel and the cooperative launches),
 * else the current one; a multi-device launch asks per entry.
 *
 * Cost: with no route and no hold watch in the process (rdc_route_active
 * 0), each hook is one call that loads one atomic, and the real function.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <errno.h>
#include <hip/hip_runtime_api.h>
#include <string.h>

#include "route.h"
#include "shim.h"

/* Not in every HIP's headers (HIP 5.2's lack them; these are HIP 7.2.4's
 * hip_runtime_api.h, Debian libamdhip64-dev 7.2.4-1~exp2). */
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device);
hipError_t hipGetFuncBySymbol(hipFunction_t *functionPtr, const void *symbolPtr);
hipError_t hipLaunchKernel_spt(const void *f, dim3 grid, dim3 block, void **args, size_t shm,
			       hipStream_t stream);
hipError_t hipLaunchCooperativeKernel_spt(const void *f, dim3 grid, dim3 block, void **args,
					  uint32_t shm, hipStream_t stream);
hipError_t hipExtLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shm,
			      hipStream_t stream, hipEvent_t start, hipEvent_t stop, int flags);
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *list, int n, unsigned int flags);
/* hipGraphNodeParams (HIP >= 6.2): a node type, then a union whose kernel
 * member is a hipKernelNodeParams; only the kernel case is read here.  The
 * layout is the header's: int type; int reserved0[3]; union { long long
 * reserved1[29]; ... }; long long reserved2. */
struct rdc_graph_node_params {
	int type;                    /* hipGraphNodeType; hipGraphNodeTypeKernel = 0 */
	int reserved0[3];
	union {
		long long reserved1[29];
		hipKernelNodeParams kernel;
	} u;
	long long reserved2;
};
_Static_assert(sizeof(struct rdc_graph_node_params) == 16 + 29 * 8 + 8, "hipGraphNodeParams layout");
hipError_t hipGraphAddNode(hipGraphNode_t *node, hipGraph_t graph, const hipGraphNode_t *deps, size_t n,
			   struct rdc_graph_node_params *params);
hipError_t hipGraphNodeSetParams(hipGraphNode_t node, struct rdc_graph_node_params *params);
hipError_t hipGraphExecNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
				     struct rdc_graph_node_params *params);

bool rdc_stub_refused(const void *stub, void *stream, const char *api)
{
	if (!atomic_load_explicit(&rdc_route_active, memory_order_relaxed) || !stub || rdc_guard_active())
		return false;
	/* the device, asked once for both lookups: the stream's, else the
	 * current one when the hold watch needs it (a route lookup asks for
	 * the current device itself, only when the stub has a route) */
	int ord = -1;
	const char *on = NULL;
	if (stream && stream != (void *)hipStreamPerThread) {
		__typeof__(&hipStreamGetDevice) devof = RDC_REAL(hipStreamGetDevice);
		if (!devof || devof((hipStream_t)stream, &ord) != hipSuccess)
			ord = -1;
	}
	if (ord < 0 && rdc_hold_watching()) {
		__typeof__(&hipGetDevice) getdev = RDC_REAL(hipGetDevice);
		if (!getdev || getdev(&ord) != hipSuccess)
			ord = -1;
	}
	const struct rdc_device *d = ord >= 0 ? rdc_device_by_hip(ord) : NULL;
	if (d)
		on = d->target.proc;
	else
		ord = -1;
	return rdc_route_denied_on(stub, on, api) || rdc_hold_denied(stub, ord, api);
}

/* ---- launches ---------------------------------------------------------------- */

RDC_HOOK hipError_t hipLaunchKernel_spt(const void *f, dim3 grid, dim3 block, void **args, size_t shm,
					hipStream_t stream)
{
	__typeof__(&hipLaunchKernel_spt) real = RDC_REAL(hipLaunchKernel_spt);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, stream ? stream : hipStreamPerThread, "hipLaunchKernel_spt"))
		f = NULL;
	return real(f, grid, block, args, shm, stream);
}

RDC_HOOK hipError_t hipLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args,
					       unsigned int shm, hipStream_t stream)
{
	__typeof__(&hipLaunchCooperativeKernel) real = RDC_REAL(hipLaunchCooperativeKernel);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, stream, "hipLaunchCooperativeKernel"))
		f = NULL;
	return real(f, grid, block, args, shm, stream);
}

RDC_HOOK hipError_t hipLaunchCooperativeKernel_spt(const void *f, dim3 grid, dim3 block, void **args,
						   uint32_t shm, hipStream_t stream)
{
	__typeof__(&hipLaunchCooperativeKernel_spt) real = RDC_REAL(hipLaunchCooperativeKernel_spt);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, stream ? stream : hipStreamPerThread, "hipLaunchCooperativeKernel_spt"))
		f = NULL;
	return real(f, grid, block, args, shm, stream);
}

RDC_HOOK hipError_t hipExtLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shm,
				       hipStream_t stream, hipEvent_t start, hipEvent_t stop, int flags)
{
	__typeof__(&hipExtLaunchKernel) real = RDC_REAL(hipExtLaunchKernel);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, stream, "hipExtLaunchKernel"))
		f = NULL;
	return real(f, grid, block, args, shm, stream, start, stop, flags);
}

/* hipLaunchByPtr: the stub launched with the configuration pushed before
 * (hipConfigureCall), on the current device. */
RDC_HOOK hipError_t hipLaunchByPtr(const void *f)
{
	__typeof__(&hipLaunchByPtr) real = RDC_REAL(hipLaunchByPtr);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipLaunchByPtr"))
		f = NULL;
	return real(f);
}

/* A list of launches, each on its stream's device: one refused entry makes
 * the whole call HIP's answer for an unknown function (nothing of it is
 * launched: CLR checks every entry before launching any). */
static hipError_t multi(hipLaunchParams *list, int n, unsigned int flags, const char *api,
			hipError_t (*real)(hipLaunchParams *, int, unsigned int))
{
	hipLaunchParams copy[RDC_MAX_DEVICES];
	if (!list || n <= 0 || n > RDC_MAX_DEVICES)
		return real(list, n, flags);   /* more entries than devices: HIP refuses it */
	for (int i = 0; i < n; i++)
		if (rdc_stub_refused(list[i].func, list[i].stream, api)) {
			memcpy(copy, list, (size_t)n * sizeof *copy);
			copy[i].func = NULL;
			return real(copy, n, flags);
		}
	return real(list, n, flags);
}

RDC_HOOK hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams *list, int n, unsigned int flags)
{
	__typeof__(&hipLaunchCooperativeKernelMultiDevice) real = RDC_REAL(hipLaunchCooperativeKernelMultiDevice);
	return real ? multi(list, n, flags, "hipLaunchCooperativeKernelMultiDevice", real) : hipErrorNotInitialized;
}

RDC_HOOK hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *list, int n, unsigned int flags)
{
	__typeof__(&hipExtLaunchMultiKernelMultiDevice) real = RDC_REAL(hipExtLaunchMultiKernelMultiDevice);
	return real ? multi(list, n, flags, "hipExtLaunchMultiKernelMultiDevice", real) : hipErrorNotInitialized;
}

/* ---- a stub's function and attributes ------------------------------------------ */

RDC_HOOK hipError_t hipGetFuncBySymbol(hipFunction_t *fn, const void *f)
{
	__typeof__(&hipGetFuncBySymbol) real = RDC_REAL(hipGetFuncBySymbol);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipGetFuncBySymbol"))
		f = NULL;
	return real(fn, f);
}

RDC_HOOK hipError_t hipFuncSetAttribute(const void *f, hipFuncAttribute attr, int value)
{
	__typeof__(&hipFuncSetAttribute) real = RDC_REAL(hipFuncSetAttribute);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipFuncSetAttribute"))
		f = NULL;
	return real(f, attr, value);
}

RDC_HOOK hipError_t hipFuncSetCacheConfig(const void *f, hipFuncCache_t config)
{
	__typeof__(&hipFuncSetCacheConfig) real = RDC_REAL(hipFuncSetCacheConfig);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipFuncSetCacheConfig"))
		f = NULL;
	return real(f, config);
}

RDC_HOOK hipError_t hipFuncSetSharedMemConfig(const void *f, hipSharedMemConfig config)
{
	__typeof__(&hipFuncSetSharedMemConfig) real = RDC_REAL(hipFuncSetSharedMemConfig);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipFuncSetSharedMemConfig"))
		f = NULL;
	return real(f, config);
}

/* ---- graph kernel nodes (resolved on the current device: clr
 * hip_graph_internal.hpp GraphKernelNode::getFunc) ------------------------------- */

/* *p with its stub replaced by NULL when refused: `tmp` or p itself. */
static const hipKernelNodeParams *kparams(const hipKernelNodeParams *p, hipKernelNodeParams *tmp,
					  const char *api)
{
	if (!p || !rdc_stub_refused(p->func, NULL, api))
		return p;
	*tmp = *p;
	tmp->func = NULL;
	return tmp;
}

RDC_HOOK hipError_t hipGraphAddKernelNode(hipGraphNode_t *node, hipGraph_t graph, const hipGraphNode_t *deps,
					  size_t n, const hipKernelNodeParams *p)
{
	__typeof__(&hipGraphAddKernelNode) real = RDC_REAL(hipGraphAddKernelNode);
	hipKernelNodeParams tmp;
	return real ? real(node, graph, deps, n, kparams(p, &tmp, "hipGraphAddKernelNode"))
		    : hipErrorNotInitialized;
}

RDC_HOOK hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams *p)
{
	__typeof__(&hipGraphKernelNodeSetParams) real = RDC_REAL(hipGraphKernelNodeSetParams);
	hipKernelNodeParams tmp;
	return real ? real(node, kparams(p, &tmp, "hipGraphKernelNodeSetParams")) : hipErrorNotInitialized;
}

RDC_HOOK hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
						    const hipKernelNodeParams *p)
{
	__typeof__(&hipGraphExecKernelNodeSetParams) real = RDC_REAL(hipGraphExecKernelNodeSetParams);
	hipKernelNodeParams tmp;
	return real ? real(exec, node, kparams(p, &tmp, "hipGraphExecKernelNodeSetParams"))
		    : hipErrorNotInitialized;
}

/* The generic node calls (HIP >= 6.2): only a kernel node's stub is asked. */
static struct rdc_graph_node_params *nparams(struct rdc_graph_node_params *p,
					     struct rdc_graph_node_params *tmp, const char *api)
{
	if (!p || p->type != 0 || !rdc_stub_refused(p->u.kernel.func, NULL, api))
		return p;
	*tmp = *p;
	tmp->u.kernel.func = NULL;
	return tmp;
}

RDC_HOOK hipError_t hipGraphAddNode(hipGraphNode_t *node, hipGraph_t graph, const hipGraphNode_t *deps,
				    size_t n, struct rdc_graph_node_params *p)
{
	__typeof__(&hipGraphAddNode) real = RDC_REAL(hipGraphAddNode);
	struct rdc_graph_node_params tmp;
	return real ? real(node, graph, deps, n, nparams(p, &tmp, "hipGraphAddNode")) : hipErrorNotInitialized;
}

RDC_HOOK hipError_t hipGraphNodeSetParams(hipGraphNode_t node, struct rdc_graph_node_params *p)
{
	__typeof__(&hipGraphNodeSetParams) real = RDC_REAL(hipGraphNodeSetParams);
	struct rdc_graph_node_params tmp;
	return real ? real(node, nparams(p, &tmp, "hipGraphNodeSetParams")) : hipErrorNotInitialized;
}

RDC_HOOK hipError_t hipGraphExecNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
					      struct rdc_graph_node_params *p)
{
	__typeof__(&hipGraphExecNodeSetParams) real = RDC_REAL(hipGraphExecNodeSetParams);
	struct rdc_graph_node_params tmp;
	return real ? real(exec, node, nparams(p, &tmp, "hipGraphExecNodeSetParams")) : hipErrorNotInitialized;
}
