/*
 * layout.c -- print the offset of every field of the runtime API structs
 * a program reads by offset, and their sizes.  tests/test_cudart.py builds
 * it twice, with -include of NVIDIA's cuda_runtime_api.h and of rfsim's
 * src/cudart/cudart.h, and requires the same output: the layouts must be
 * CUDA 13's to the byte.
 */
#include <stddef.h>
#include <stdio.h>

#define PROP_FIELDS(X) \
	X(name) X(uuid) X(luid) X(luidDeviceNodeMask) X(totalGlobalMem) X(sharedMemPerBlock) \
	X(regsPerBlock) X(warpSize) X(memPitch) X(maxThreadsPerBlock) X(maxThreadsDim) \
	X(maxGridSize) X(totalConstMem) X(major) X(minor) X(textureAlignment) \
	X(texturePitchAlignment) X(multiProcessorCount) X(integrated) X(canMapHostMemory) \
	X(maxTexture1D) X(maxTexture1DMipmap) X(maxTexture2D) X(maxTexture2DMipmap) \
	X(maxTexture2DLinear) X(maxTexture2DGather) X(maxTexture3D) X(maxTexture3DAlt) \
	X(maxTextureCubemap) X(maxTexture1DLayered) X(maxTexture2DLayered) \
	X(maxTextureCubemapLayered) X(maxSurface1D) X(maxSurface2D) X(maxSurface3D) \
	X(maxSurface1DLayered) X(maxSurface2DLayered) X(maxSurfaceCubemap) \
	X(maxSurfaceCubemapLayered) X(surfaceAlignment) X(concurrentKernels) X(ECCEnabled) \
	X(pciBusID) X(pciDeviceID) X(pciDomainID) X(tccDriver) X(asyncEngineCount) \
	X(unifiedAddressing) X(memoryBusWidth) X(l2CacheSize) X(persistingL2CacheMaxSize) \
	X(maxThreadsPerMultiProcessor) X(streamPrioritiesSupported) X(globalL1CacheSupported) \
	X(localL1CacheSupported) X(sharedMemPerMultiprocessor) X(regsPerMultiprocessor) \
	X(managedMemory) X(isMultiGpuBoard) X(multiGpuBoardGroupID) \
	X(hostNativeAtomicSupported) X(pageableMemoryAccess) X(concurrentManagedAccess) \
	X(computePreemptionSupported) X(canUseHostPointerForRegisteredMem) \
	X(cooperativeLaunch) X(sharedMemPerBlockOptin) \
	X(pageableMemoryAccessUsesHostPageTables) X(directManagedMemAccessFromHost) \
	X(maxBlocksPerMultiProcessor) X(accessPolicyMaxWindowSize) \
	X(reservedSharedMemPerBlock) X(hostRegisterSupported) X(sparseCudaArraySupported) \
	X(hostRegisterReadOnlySupported) X(timelineSemaphoreInteropSupported) \
	X(memoryPoolsSupported) X(gpuDirectRDMASupported) X(gpuDirectRDMAFlushWritesOptions) \
	X(gpuDirectRDMAWritesOrdering) X(memoryPoolSupportedHandleTypes) \
	X(deferredMappingCudaArraySupported) X(ipcEventSupported) X(clusterLaunch) \
	X(unifiedFunctionPointers) X(deviceNumaConfig) X(deviceNumaId) X(mpsEnabled) \
	X(hostNumaId) X(gpuPciDeviceID) X(gpuPciSubsystemID) \
	X(hostNumaMultinodeIpcSupported) X(reserved)

#define FUNC_FIELDS(X) \
	X(sharedSizeBytes) X(constSizeBytes) X(localSizeBytes) X(maxThreadsPerBlock) \
	X(numRegs) X(ptxVersion) X(binaryVersion) X(cacheModeCA) \
	X(maxDynamicSharedSizeBytes) X(preferredShmemCarveout) X(clusterDimMustBeSet) \
	X(requiredClusterWidth) X(requiredClusterHeight) X(requiredClusterDepth) \
	X(clusterSchedulingPolicyPreference) X(nonPortableClusterSizeAllowed) X(reserved)

#define PTR_FIELDS(X) X(type) X(device) X(devicePointer) X(hostPointer) X(reserved)

#define CHANNEL_FIELDS(X) X(x) X(y) X(z) X(w) X(f)

#define CONFIG_FIELDS(X) X(gridDim) X(blockDim) X(dynamicSmemBytes) X(stream) X(attrs) \
	X(numAttrs)

#define ATTR_FIELDS(X) X(id) X(val)

#define COPY3D_FIELDS(X) X(srcArray) X(srcPos) X(srcPtr) X(dstArray) X(dstPos) X(dstPtr) \
	X(extent) X(kind)

#define PITCHED_FIELDS(X) X(ptr) X(pitch) X(xsize) X(ysize)

#define RESDESC_FIELDS(X) X(resType) X(res.array.array) X(res.linear.devPtr) \
	X(res.linear.desc) X(res.linear.sizeInBytes) X(res.pitch2D.devPtr) X(res.pitch2D.desc) \
	X(res.pitch2D.width) X(res.pitch2D.height) X(res.pitch2D.pitchInBytes) X(res) X(flags)

#define TEXDESC_FIELDS(X) X(addressMode) X(filterMode) X(readMode) X(sRGB) X(borderColor) \
	X(normalizedCoords) X(maxAnisotropy) X(mipmapFilterMode) X(mipmapLevelBias) \
	X(minMipmapLevelClamp) X(maxMipmapLevelClamp) X(disableTrilinearOptimization) \
	X(seamlessCubemap)

#define VIEW_FIELDS(X) X(format) X(width) X(height) X(depth) X(firstMipmapLevel) \
	X(lastMipmapLevel) X(firstLayer) X(lastLayer) X(reserved)
/* graphs: node parameters, update results, edges */
#define KNODE_FIELDS(X) X(func) X(gridDim) X(blockDim) X(sharedMemBytes) X(kernelParams) \
	X(extra)
#define MEMSET_FIELDS(X) X(dst) X(pitch) X(value) X(elementSize) X(width) X(height)
#define HOSTNODE_FIELDS(X) X(fn) X(userData)
#define UPDATE_FIELDS(X) X(result) X(errorNode) X(errorFromNode)
#define EDGE_FIELDS(X) X(from_port) X(to_port) X(type) X(reserved)
#define INST_FIELDS(X) X(flags) X(uploadStream) X(errNode_out) X(result_out)
#define POOL_FIELDS(X) X(allocType) X(handleTypes) X(location) X(win32SecurityAttributes) \
	X(maxSize) X(usage) X(reserved)
#define ACCESS_FIELDS(X) X(location) X(flags)

#define SHOW(s, f) printf(#s "." #f " %zu %zu\n", offsetof(struct s, f), \
                          sizeof ((struct s *)0)->f);
#define PROP(f) SHOW(cudaDeviceProp, f)
#define FUNC(f) SHOW(cudaFuncAttributes, f)
#define PTR(f) SHOW(cudaPointerAttributes, f)
#define CHANNEL(f) SHOW(cudaChannelFormatDesc, f)
#define SHOWT(t, f) printf(#t "." #f " %zu %zu\n", offsetof(t, f), sizeof ((t *)0)->f);
#define CONFIG(f) SHOWT(cudaLaunchConfig_t, f)
#define ATTR(f) SHOWT(cudaLaunchAttribute, f)
#define COPY3D(f) SHOW(cudaMemcpy3DParms, f)
#define PITCHED(f) SHOW(cudaPitchedPtr, f)
#define RESDESC(f) SHOW(cudaResourceDesc, f)
#define TEXDESC(f) SHOW(cudaTextureDesc, f)
#define VIEW(f) SHOW(cudaResourceViewDesc, f)
#define KNODE(f) SHOW(cudaKernelNodeParams, f)
#define MEMSET(f) SHOW(cudaMemsetParams, f)
#define HOSTNODE(f) SHOW(cudaHostNodeParams, f)
#define UPDATE(f) SHOWT(cudaGraphExecUpdateResultInfo, f)
#define EDGE(f) SHOWT(cudaGraphEdgeData, f)
#define INST(f) SHOWT(cudaGraphInstantiateParams, f)
#define POOL(f) SHOW(cudaMemPoolProps, f)
#define ACCESS(f) SHOW(cudaMemAccessDesc, f)

int main(void)
{
	PROP_FIELDS(PROP)
	FUNC_FIELDS(FUNC)
	PTR_FIELDS(PTR)
	CHANNEL_FIELDS(CHANNEL)
	CONFIG_FIELDS(CONFIG)
	ATTR_FIELDS(ATTR)
	COPY3D_FIELDS(COPY3D)
	PITCHED_FIELDS(PITCHED)
	RESDESC_FIELDS(RESDESC)
	TEXDESC_FIELDS(TEXDESC)
	VIEW_FIELDS(VIEW)
	printf("handles %zu %zu\n", sizeof(cudaTextureObject_t), sizeof(cudaSurfaceObject_t));
	KNODE_FIELDS(KNODE)
	MEMSET_FIELDS(MEMSET)
	HOSTNODE_FIELDS(HOSTNODE)
	UPDATE_FIELDS(UPDATE)
	EDGE_FIELDS(EDGE)
	INST_FIELDS(INST)
	POOL_FIELDS(POOL)
	ACCESS_FIELDS(ACCESS)
	printf("pool attrs %d %d %d\n", (int)cudaMemPoolAttrReleaseThreshold,
	       (int)cudaMemPoolAttrUsedMemHigh, (int)cudaMemAccessFlagsProtReadWrite);
	printf("extent %zu pos %zu\n", sizeof(struct cudaExtent), sizeof(struct cudaPos));
	printf("sizes %zu %zu %zu %zu %zu %zu %zu\n", sizeof(struct cudaDeviceProp),
	       sizeof(struct cudaFuncAttributes), sizeof(struct cudaPointerAttributes),
	       sizeof(struct cudaChannelFormatDesc), sizeof(dim3), sizeof(cudaLaunchConfig_t),
	       sizeof(cudaLaunchAttribute));
	return 0;
}
