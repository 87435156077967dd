/*
 * devquery.cu -- what programs print and size their launches from: the
 * device count and properties, cudaDeviceGetAttribute, cudaMemGetInfo,
 * cudaFuncGetAttributes, the occupancy calculator
 * (cudaOccupancyMaxActiveBlocksPerMultiprocessor and the
 * cudaOccupancyMaxPotentialBlockSize template), and a kernel that opts in
 * to the device's largest dynamic shared memory with cudaFuncSetAttribute.
 * Every number is checked for consistency with the others; the copy
 * engines, concurrency and feature flags programs choose paths by are
 * printed for the test to check against the modelled GPU's.  The program
 * ends without freeing anything, as many do.
 */
#include <cuda_runtime.h>

#include "check.h"

__global__ void reverse_block(int *v, int n)
{
	extern __shared__ int tile[];
	int base = blockIdx.x * n;
	for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = v[base + i];
	__syncthreads();
	for (int i = threadIdx.x; i < n; i += blockDim.x) v[base + i] = tile[n - 1 - i];
}

__global__ void __launch_bounds__(128) bounded(float *v)
{
	__shared__ float s[300];
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	v[blockIdx.x * blockDim.x + threadIdx.x] = s[127 - threadIdx.x];
}

int main()
{
	int count = -1, dev = -1;
	CHECK(cudaGetDeviceCount(&count));
	EXPECT(count == 1, "%d devices", count);
	CHECK(cudaSetDevice(0));
	CHECK(cudaGetDevice(&dev));
	EXPECT(dev == 0, "device %d", dev);
	EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice, "device 1 accepted");
	EXPECT(cudaGetLastError() == cudaErrorInvalidDevice, "not recorded");

	cudaDeviceProp p;
	CHECK(cudaGetDeviceProperties(&p, 0));
	int clock_khz = 0, mem_khz = 0, bus = 0, l2 = 0, sms = 0, warp = 0, optin = 0, smem = 0;
	CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
	CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
	CHECK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
	CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
	CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
	CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, 0));
	std::printf("Device 0: \"%s\"\n", p.name);
	std::printf("  compute capability          %d.%d\n", p.major, p.minor);
	std::printf("  multiprocessors             %d\n", p.multiProcessorCount);
	std::printf("  global memory               %.0f MiB\n", p.totalGlobalMem / 1048576.0);
	std::printf("  GPU clock                   %.0f MHz\n", clock_khz * 1e-3);
	std::printf("  memory clock, bus           %.0f MHz, %d bits\n", mem_khz * 1e-3, bus);
	std::printf("  peak memory bandwidth       %.1f GB/s\n", 2.0 * mem_khz * (bus / 8) / 1e6);
	std::printf("  L2 cache                    %d bytes\n", p.l2CacheSize);
	std::printf("  shared memory per block     %zu (opt-in %zu)\n", p.sharedMemPerBlock,
	            p.sharedMemPerBlockOptin);
	std::printf("  registers per block         %d\n", p.regsPerBlock);
	std::printf("  warp size                   %d\n", p.warpSize);
	std::printf("  max threads per block       %d\n", p.maxThreadsPerBlock);
	std::printf("  max block dims              %d x %d x %d\n", p.maxThreadsDim[0],
	            p.maxThreadsDim[1], p.maxThreadsDim[2]);
	std::printf("  max grid dims               %d x %d x %d\n", p.maxGridSize[0],
	            p.maxGridSize[1], p.maxGridSize[2]);
	/* what programs choose paths by (issue 20, item 10: asyncEngineCount and
	   concurrentKernels read 0, and a program took its untested no-overlap path) */
	std::printf("  concurrent copy and kernel  %s with %d copy engine(s)\n",
	            p.asyncEngineCount ? "Yes" : "No", p.asyncEngineCount);
	std::printf("  concurrent kernels          %s\n", p.concurrentKernels ? "Yes" : "No");
	std::printf("  managed memory              %s (concurrent access %s)\n",
	            p.managedMemory ? "Yes" : "No", p.concurrentManagedAccess ? "Yes" : "No");
	std::printf("  compute preemption          %s\n",
	            p.computePreemptionSupported ? "Yes" : "No");
	std::printf("  cooperative launch          %s\n", p.cooperativeLaunch ? "Yes" : "No");
	std::printf("  cluster launch              %s\n", p.clusterLaunch ? "Yes" : "No");
	std::printf("  global, local L1 caching    %d, %d\n", p.globalL1CacheSupported,
	            p.localL1CacheSupported);
	struct { enum cudaDeviceAttr a; int prop; const char *name; } same[] = {
		{cudaDevAttrAsyncEngineCount, p.asyncEngineCount, "asyncEngineCount"},
		{cudaDevAttrConcurrentKernels, p.concurrentKernels, "concurrentKernels"},
		{cudaDevAttrManagedMemory, p.managedMemory, "managedMemory"},
		{cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess,
		 "concurrentManagedAccess"},
		{cudaDevAttrComputePreemptionSupported, p.computePreemptionSupported,
		 "computePreemptionSupported"},
		{cudaDevAttrCooperativeLaunch, p.cooperativeLaunch, "cooperativeLaunch"},
		{cudaDevAttrClusterLaunch, p.clusterLaunch, "clusterLaunch"},
		{cudaDevAttrComputeCapabilityMajor, p.major, "major"},
		{cudaDevAttrComputeCapabilityMinor, p.minor, "minor"},
		{cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor,
		 "regsPerMultiprocessor"},
		{cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor,
		 "maxBlocksPerMultiProcessor"},
	};
	for (auto &q : same) {
		int v = -1;
		CHECK(cudaDeviceGetAttribute(&v, q.a, 0));
		EXPECT(v == q.prop, "%s: attribute %d, property %d", q.name, v, q.prop);
	}
	EXPECT(p.asyncEngineCount >= 1 && p.concurrentKernels == 1,
	       "asyncEngineCount %d, concurrentKernels %d: no GPU since Fermi reports that",
	       p.asyncEngineCount, p.concurrentKernels);
	EXPECT(p.name[0] != 0, "no name");
	EXPECT(p.warpSize == 32 && warp == 32, "warp size %d/%d", p.warpSize, warp);
	EXPECT(p.multiProcessorCount == sms && sms > 0, "SMs %d/%d", p.multiProcessorCount, sms);
	EXPECT(p.maxThreadsPerBlock >= 512 && p.maxThreadsDim[0] >= 512, "threads per block");
	EXPECT(p.sharedMemPerBlock == (size_t)smem && smem >= 16384, "shared per block");
	EXPECT(p.sharedMemPerBlockOptin == (size_t)optin && optin >= smem, "opt-in shared");
	EXPECT(p.totalGlobalMem > (64u << 20), "global memory %zu", p.totalGlobalMem);
	EXPECT(clock_khz > 0, "clock rate %d kHz", clock_khz);
	EXPECT(mem_khz > 0 && bus > 0, "memory clock %d kHz, bus %d bits", mem_khz, bus);
	EXPECT(l2 >= 0 && l2 == p.l2CacheSize, "L2 %d/%d bytes", l2, p.l2CacheSize);  /* gebhart: none */
	EXPECT(p.memoryBusWidth == bus, "bus width %d/%d", p.memoryBusWidth, bus);
	EXPECT(p.major * 10 + p.minor >= 20, "compute capability %d.%d", p.major, p.minor);

	size_t free_b = 0, total_b = 0, free_after = 0;
	CHECK(cudaMemGetInfo(&free_b, &total_b));
	EXPECT(total_b == p.totalGlobalMem && free_b <= total_b, "memory %zu of %zu", free_b,
	       total_b);
	void *big;
	CHECK(cudaMalloc(&big, 32 << 20));
	CHECK(cudaMemGetInfo(&free_after, &total_b));
	EXPECT(free_after + (32 << 20) <= free_b, "free went from %zu to %zu after 32 MiB",
	       free_b, free_after);

	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, bounded));
	std::printf("bounded: %d regs, %zu static shared, max %d threads, ptx %d\n", fa.numRegs,
	            fa.sharedSizeBytes, fa.maxThreadsPerBlock, fa.ptxVersion);
	EXPECT(fa.sharedSizeBytes == 300 * sizeof(float), "static shared %zu", fa.sharedSizeBytes);
	EXPECT(fa.maxThreadsPerBlock == 128, "launch bounds give %d", fa.maxThreadsPerBlock);
	EXPECT(fa.numRegs > 0 && fa.numRegs <= 255, "%d registers", fa.numRegs);
	EXPECT(fa.ptxVersion >= 20, "ptx version %d", fa.ptxVersion);

	/* occupancy: the calculator's answer must be launchable and consistent */
	int blocks = -1, min_grid = -1, best = -1;
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 128, 0));
	EXPECT(blocks >= 1 && blocks * 128 <= p.maxThreadsPerMultiProcessor, "%d blocks", blocks);
	CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, reverse_block, 0, 0));
	EXPECT(best >= 32 && best <= p.maxThreadsPerBlock && best % 32 == 0, "block size %d", best);
	EXPECT(min_grid >= sms, "min grid %d", min_grid);
	std::printf("occupancy: %d blocks of 128/SM; suggested block %d, grid %d\n", blocks, best,
	            min_grid);
	float *fv;
	CHECK(cudaMalloc(&fv, 2 * 128 * sizeof(float)));
	bounded<<<2, 128>>>(fv);
	CHECK(cudaGetLastError());
	bounded<<<1, 256>>>(fv);
	EXPECT(cudaGetLastError() != cudaSuccess, "256 threads launched past __launch_bounds__(128)");

	/* the largest dynamic shared memory a block may have */
	int n = optin / (int)sizeof(int);
	if (optin > smem) {
		reverse_block<<<1, 256, optin>>>((int *)big, n);
		EXPECT(cudaGetLastError() != cudaSuccess, "%d bytes launched without opting in",
		       optin);
		CHECK(cudaFuncSetAttribute(reverse_block, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                           optin));
	}
	CHECK(cudaFuncGetAttributes(&fa, reverse_block));
	EXPECT(fa.maxDynamicSharedSizeBytes == optin, "max dynamic %d", fa.maxDynamicSharedSizeBytes);
	EXPECT(cudaFuncSetAttribute(reverse_block, cudaFuncAttributeMaxDynamicSharedMemorySize,
	                            optin + 1) == cudaErrorInvalidValue, "past the opt-in limit");
	(void)cudaGetLastError();
	int *h = new int[2 * n];
	for (int i = 0; i < 2 * n; i++) h[i] = i;
	CHECK(cudaMemcpy(big, h, 2 * n * sizeof(int), cudaMemcpyHostToDevice));
	reverse_block<<<2, best, n * sizeof(int)>>>((int *)big, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(h, big, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
	for (int b = 0; b < 2; b++)
		for (int i = 0; i < n; i++)
			EXPECT(h[b * n + i] == b * n + n - 1 - i, "block %d: h[%d] = %d", b, i, h[b * n + i]);
	std::printf("reversed 2 blocks of %d bytes of dynamic shared memory\n", optin);
	std::printf("PASS\n");
	return 0;                    /* nothing freed: the runtime cleans up at exit */
}
