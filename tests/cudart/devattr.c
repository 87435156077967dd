/*
 * devattr.c -- every device attribute of CUDA 13 through both APIs and
 * cudaDeviceProp, without the toolkit (tests/test_cudart.py builds it with
 * cc: issue 20, item 10).
 *
 *   devattr CONFIG.cfg      (with RFSIM_CONFIG=CONFIG.cfg for libcudart)
 *
 * The rows of src/api/devattr.def give the names, numbers and property
 * fields.  For each, the Driver API's value (cuDeviceGetAttribute of
 * librfsim.a, linked in statically with the same config: libcudart keeps
 * its own copy of the driver layer to itself), the runtime's
 * (cudaDeviceGetAttribute) and, where the struct has the field,
 * cudaGetDeviceProperties' must be equal; each is printed as
 * "NAME NUMBER VALUE" for the test to check against the modelled GPU's.
 * Numbers outside the enum are invalid values in both APIs.  Prints PASS.
 */
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "base/config.h"
#include "cudart.h"

static int fails;

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); fails++; } while (0)

static void check(const char *name, int num, const char *field, long long prop)
{
	int drv = -12345, rt = -12345;
	CUresult r = cuDeviceGetAttribute(&drv, (CUdevice_attribute)num, 0);
	cudaError_t e = cudaDeviceGetAttribute(&rt, (enum cudaDeviceAttr)num, 0);
	if (r != CUDA_SUCCESS || e != cudaSuccess)
		FAIL("%s (%d): cuDeviceGetAttribute %d, cudaDeviceGetAttribute %d", name, num,
		     (int)r, (int)e);
	else if (drv != rt)
		FAIL("%s (%d): driver %d, runtime %d", name, num, drv, rt);
	else if (field && prop != drv)
		FAIL("%s (%d): attribute %d, cudaDeviceProp.%s %lld", name, num, drv, field, prop);
	printf("%s %d %d\n", name, num, drv);
}

static void invalid(int num)
{
	int v = 0;
	CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)num, 0);
	cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)num, 0);
	if (r != CUDA_ERROR_INVALID_VALUE || e != cudaErrorInvalidValue)
		FAIL("attribute %d: cuDeviceGetAttribute %d, cudaDeviceGetAttribute %d (want "
		     "invalid value)", num, (int)r, (int)e);
	if (cudaGetLastError() != e) FAIL("attribute %d: the error was not recorded", num);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: devattr CONFIG.cfg\n");
		return 2;
	}
	Config c;
	config_defaults(&c);
	if (config_load(&c, argv[1])) {
		fprintf(stderr, "devattr: %s\n", err_msg());
		return 2;
	}
	api_set_config(&c);
	if (cuInit(0)) return 1;

	struct cudaDeviceProp p;
	memset(&p, 0xA5, sizeof p);
	if (cudaGetDeviceProperties(&p, 0)) FAIL("cudaGetDeviceProperties");
#define DA(name, num, rtname, value) check(#name, num, NULL, 0);
#define DP(name, num, rtname, field, value) check(#name, num, #field, (long long)p.field);
#define DD(name, num, value) check(#name, num, NULL, 0);
#include "devattr.def"
#undef DA
#undef DP
#undef DD
	if (p.totalGlobalMem != (size_t)c.gpu_global_bytes)
		FAIL("totalGlobalMem %zu, gpu.global_bytes %lld", p.totalGlobalMem,
		     (long long)c.gpu_global_bytes);
	for (size_t i = 0; i < sizeof p.reserved / sizeof *p.reserved; i++)
		if (p.reserved[i]) FAIL("cudaDeviceProp.reserved[%zu] = %d", i, p.reserved[i]);
	printf("name %s\n", p.name);

	int outside[] = {0, -1, CU_DEVICE_ATTRIBUTE_MAX, cudaDevAttrMax + 1, 1000, 1 << 30};
	for (size_t i = 0; i < sizeof outside / sizeof *outside; i++) invalid(outside[i]);
	int v;
	if (cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1) != cudaErrorInvalidDevice ||
	    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 1) != CUDA_ERROR_INVALID_DEVICE)
		FAIL("device 1 accepted");
	(void)cudaGetLastError();
	if (fails) return 1;
	printf("PASS\n");
	return 0;
}
