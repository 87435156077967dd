/*
 * cudart.h -- the part of the CUDA runtime API (CUDA 13) that rfsim's
 * libcudart.so.13 implements: types, constants and prototypes.
 *
 * Programs are compiled against NVIDIA's headers and linked against
 * NVIDIA's libcudart; at run time the loader finds ours instead.  So the
 * contract is binary: every function name, argument list, enum value,
 * flag bit and struct layout here must equal CUDA 13's.  Struct layouts
 * matter most -- a program reads cudaDeviceProp fields at offsets fixed
 * when it was compiled -- and tests/test_cudart.py compares every field
 * offset of the structs below with NVIDIA's header.  The text is ours;
 * fields we leave zero carry no comment beyond their group's.
 *
 * Only what the implementation uses is declared: the rest of NVIDIA's
 * ~400 entry points exist as stubs (stubs.def) that say "not supported".
 * The handles are the driver's opaque structs, as in NVIDIA's headers:
 * cudaStream_t is a CUstream and cudaFunction_t a CUfunction.
 */
#ifndef RFSIM_CUDART_H
#define RFSIM_CUDART_H

#include <stddef.h>

#define CUDART_VERSION 13000     /* cudaRuntimeGetVersion */

/* ---- status codes (values in rterrors.def) ---- */

typedef enum cudaError {
#define X(name, value, desc) name = value,
#include "rterrors.def"
#undef X
} cudaError_t;

/* ---- handles ---- */

typedef struct CUstream_st *cudaStream_t;       /* NULL: the legacy default stream */
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUfunc_st *cudaFunction_t;       /* a driver CUfunction */
typedef struct CUkern_st *cudaKernel_t;         /* a registered kernel (RtFunc) */

#define cudaStreamLegacy    ((cudaStream_t)0x1)  /* the legacy default stream, by name */
#define cudaStreamPerThread ((cudaStream_t)0x2)  /* per-thread default stream, by name */

typedef struct dim3 { unsigned int x, y, z; } dim3;   /* passed by value: 12 bytes */

typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *user);
typedef void (*cudaHostFn_t)(void *user);

/* ---- enumerations ---- */

enum cudaMemcpyKind {
	cudaMemcpyHostToHost = 0,
	cudaMemcpyHostToDevice = 1,
	cudaMemcpyDeviceToHost = 2,
	cudaMemcpyDeviceToDevice = 3,
	cudaMemcpyDefault = 4           /* inferred from the pointers (unified addressing) */
};

enum cudaMemoryType {
	cudaMemoryTypeUnregistered = 0, /* ordinary host memory */
	cudaMemoryTypeHost = 1,         /* from cudaMallocHost / cudaHostAlloc */
	cudaMemoryTypeDevice = 2,
	cudaMemoryTypeManaged = 3
};

enum cudaFuncAttribute {          /* cudaFuncSetAttribute */
	cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
	cudaFuncAttributePreferredSharedMemoryCarveout = 9,
	cudaFuncAttributeClusterDimMustBeSet = 10,
	cudaFuncAttributeRequiredClusterWidth = 11,
	cudaFuncAttributeRequiredClusterHeight = 12,
	cudaFuncAttributeRequiredClusterDepth = 13,
	cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
	cudaFuncAttributeClusterSchedulingPolicyPreference = 15
};

enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared,
                     cudaFuncCachePreferL1, cudaFuncCachePreferEqual };

enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte,
                           cudaSharedMemBankSizeEightByte };

enum cudaLimit {
	cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
	cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
	cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6
};

enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned,
                             cudaChannelFormatKindFloat, cudaChannelFormatKindNone };

/* cudaDeviceGetAttribute's numbering is the driver's CUdevice_attribute
 * (src/api/cuda.h), which the implementation passes straight through: every
 * attribute of CUDA 13, names, numbers and values in src/api/devattr.def */
enum cudaDeviceAttr {
#define DA(name, num, rtname, value) rtname = num,
#define DP(name, num, rtname, field, value) rtname = num,
#define DD(name, num, value)
#include "../api/devattr.def"
#undef DA
#undef DP
#undef DD
	cudaDevAttrMax = 148
};

enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1 };     /* values accepted, unused */
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1,
                          cudaMemLocationTypeHost = 2 };

/* memory pools of the stream-ordered allocator (mempool.c) */
enum cudaMemPoolAttr {
	cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
	cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
	cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6,
	cudaMemPoolAttrUsedMemCurrent = 7, cudaMemPoolAttrUsedMemHigh = 8
};
enum cudaMemAllocationType { cudaMemAllocationTypeInvalid = 0, cudaMemAllocationTypePinned = 1,
                             cudaMemAllocationTypeManaged = 2 };
enum cudaMemAllocationHandleType { cudaMemHandleTypeNone = 0,
                                   cudaMemHandleTypePosixFileDescriptor = 1 };
enum cudaMemAccessFlags { cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1,
                          cudaMemAccessFlagsProtReadWrite = 3 };

/* textures and surfaces (texture.c) */
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1,
                        cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1,
                              cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaResourceViewFormat { cudaResViewFormatNone = 0 };   /* views: only none */

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

/* ---- flags ---- */

#define cudaHostAllocDefault       0x00
#define cudaHostAllocPortable      0x01
#define cudaHostAllocMapped        0x02   /* device-accessible: rfsim mirrors it (memory.c) */
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault    0x00   /* cudaHostRegister's flags */
#define cudaHostRegisterPortable   0x01
#define cudaHostRegisterMapped     0x02   /* device access: not supported (memory.c) */
#define cudaHostRegisterIoMemory   0x04
#define cudaHostRegisterReadOnly   0x08
#define cudaStreamDefault          0x00
#define cudaStreamNonBlocking      0x01
#define cudaEventDefault           0x00
#define cudaEventBlockingSync      0x01
#define cudaEventDisableTiming     0x02
#define cudaEventInterprocess      0x04
#define cudaDeviceScheduleMask     0x07
#define cudaDeviceMapHost          0x08
#define cudaDeviceLmemResizeToMax  0x10
#define cudaMemAttachGlobal        0x01
#define cudaMemAttachHost          0x02
#define cudaMemAttachSingle        0x04
#define cudaArrayDefault           0x00   /* cudaMallocArray / cudaMalloc3DArray flags */
#define cudaArrayLayered           0x01   /* refused */
#define cudaArraySurfaceLoadStore  0x02
#define cudaArrayCubemap           0x04   /* refused */
#define cudaArrayTextureGather     0x08

/* ---- structs (layouts are CUDA 13's; offsets tested) ---- */

typedef struct CUuuid_st { char bytes[16]; } cudaUUID_t;

struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };

struct cudaMemLocation { enum cudaMemLocationType type; int id; };

struct cudaMemPoolProps {
	enum cudaMemAllocationType allocType;
	enum cudaMemAllocationHandleType handleTypes;
	struct cudaMemLocation location;
	void *win32SecurityAttributes;
	size_t maxSize;
	unsigned short usage;
	unsigned char reserved[54];
};
struct cudaMemAccessDesc { struct cudaMemLocation location; enum cudaMemAccessFlags flags; };
typedef struct CUmemPoolHandle_st *cudaMemPool_t;

typedef struct cudaArray *cudaArray_t;          /* CUDA arrays: src/cudart/array.c */
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;   /* not supported */

struct cudaPitchedPtr {
	void *ptr;
	size_t pitch;                   /* bytes from one row to the next */
	size_t xsize, ysize;            /* logical width (elements) and height (rows) */
};

struct cudaExtent { size_t width, height, depth; };  /* width in bytes for linear memory */

struct cudaPos { size_t x, y, z; };                  /* x in bytes for linear memory */

struct cudaMemcpy3DParms {
	cudaArray_t srcArray;
	struct cudaPos srcPos;
	struct cudaPitchedPtr srcPtr;
	cudaArray_t dstArray;
	struct cudaPos dstPos;
	struct cudaPitchedPtr dstPtr;
	struct cudaExtent extent;
	enum cudaMemcpyKind kind;
};

struct cudaResourceDesc {
	enum cudaResourceType resType;
	union {
		struct { cudaArray_t array; } array;
		struct { cudaMipmappedArray_t mipmap; } mipmap;
		struct {
			void *devPtr;
			struct cudaChannelFormatDesc desc;
			size_t sizeInBytes;
		} linear;
		struct {
			void *devPtr;
			struct cudaChannelFormatDesc desc;
			size_t width, height;       /* elements */
			size_t pitchInBytes;
		} pitch2D;
		struct { int reserved[32]; } reserved;
	} res;
	unsigned int flags;             /* must be zero */
};

struct cudaTextureDesc {
	enum cudaTextureAddressMode addressMode[3];
	enum cudaTextureFilterMode filterMode;
	enum cudaTextureReadMode readMode;
	int sRGB;                       /* refused */
	float borderColor[4];
	int normalizedCoords;
	unsigned int maxAnisotropy;     /* mipmaps and anisotropy: ignored (no mipmaps) */
	enum cudaTextureFilterMode mipmapFilterMode;
	float mipmapLevelBias;
	float minMipmapLevelClamp;
	float maxMipmapLevelClamp;
	int disableTrilinearOptimization;
	int seamlessCubemap;
};

struct cudaResourceViewDesc {     /* accepted only as NULL */
	enum cudaResourceViewFormat format;
	size_t width, height, depth;
	unsigned int firstMipmapLevel, lastMipmapLevel;
	unsigned int firstLayer, lastLayer;
	unsigned int reserved[16];
};

struct cudaPointerAttributes {
	enum cudaMemoryType type;
	int device;                     /* ordinal of the owning device */
	void *devicePointer;            /* address kernels use; NULL for host memory */
	void *hostPointer;              /* address the host uses; NULL for device memory */
	long reserved[8];
};

struct cudaFuncAttributes {
	size_t sharedSizeBytes;         /* static shared memory per block */
	size_t constSizeBytes;          /* user constant memory */
	size_t localSizeBytes;          /* local memory per thread */
	int maxThreadsPerBlock;         /* largest block the kernel can be launched with */
	int numRegs;                    /* registers per thread */
	int ptxVersion;                 /* major*10 + minor */
	int binaryVersion;              /* major*10 + minor */
	int cacheModeCA;
	int maxDynamicSharedSizeBytes;
	int preferredShmemCarveout;
	/* thread-block clusters */
	int clusterDimMustBeSet;
	int requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
	int clusterSchedulingPolicyPreference;
	int nonPortableClusterSizeAllowed;
	int reserved[16];
};

struct cudaDeviceProp {        /* values: src/api/devattr.def */
	/* identity */
	char name[256];
	cudaUUID_t uuid;
	char luid[8];
	unsigned int luidDeviceNodeMask;
	/* memory and thread-block limits */
	size_t totalGlobalMem;          /* bytes: gpu.global_bytes */
	size_t sharedMemPerBlock;       /* bytes: 48 KB or block.max_shared_bytes if less */
	int regsPerBlock;
	int warpSize;
	size_t memPitch;
	int maxThreadsPerBlock;
	int maxThreadsDim[3];
	int maxGridSize[3];
	size_t totalConstMem;
	int major, minor;               /* compute capability */
	size_t textureAlignment;
	size_t texturePitchAlignment;
	int multiProcessorCount;        /* sm.count */
	int integrated;
	int canMapHostMemory;
	/* texture and surface limits (devattr.def; mipmapped, cube map: zero) */
	int maxTexture1D, maxTexture1DMipmap;
	int maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2];
	int maxTexture3D[3], maxTexture3DAlt[3];
	int maxTextureCubemap;
	int maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2];
	int maxSurface1D, maxSurface2D[2], maxSurface3D[3];
	int maxSurface1DLayered[2], maxSurface2DLayered[3];
	int maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
	size_t surfaceAlignment;
	/* the device and its bus */
	int concurrentKernels;
	int ECCEnabled;
	int pciBusID, pciDeviceID, pciDomainID;
	int tccDriver;
	int asyncEngineCount;
	int unifiedAddressing;
	int memoryBusWidth;
	int l2CacheSize;
	int persistingL2CacheMaxSize;
	/* one SM */
	int maxThreadsPerMultiProcessor;
	int streamPrioritiesSupported;
	int globalL1CacheSupported, localL1CacheSupported;
	size_t sharedMemPerMultiprocessor;
	int regsPerMultiprocessor;
	/* unified memory and later additions */
	int managedMemory;
	int isMultiGpuBoard, multiGpuBoardGroupID;
	int hostNativeAtomicSupported;
	int pageableMemoryAccess;
	int concurrentManagedAccess;
	int computePreemptionSupported;
	int canUseHostPointerForRegisteredMem;
	int cooperativeLaunch;
	size_t sharedMemPerBlockOptin;
	int pageableMemoryAccessUsesHostPageTables;
	int directManagedMemAccessFromHost;
	int maxBlocksPerMultiProcessor;
	int accessPolicyMaxWindowSize;
	size_t reservedSharedMemPerBlock;
	int hostRegisterSupported;
	int sparseCudaArraySupported;
	int hostRegisterReadOnlySupported;
	int timelineSemaphoreInteropSupported;
	int memoryPoolsSupported;
	int gpuDirectRDMASupported;
	unsigned int gpuDirectRDMAFlushWritesOptions;
	int gpuDirectRDMAWritesOrdering;
	unsigned int memoryPoolSupportedHandleTypes;
	int deferredMappingCudaArraySupported;
	int ipcEventSupported;
	int clusterLaunch;
	int unifiedFunctionPointers;
	int deviceNumaConfig, deviceNumaId;
	int mpsEnabled;
	int hostNumaId;
	unsigned int gpuPciDeviceID, gpuPciSubsystemID;
	int hostNumaMultinodeIpcSupported;
	int reserved[56];
};

/* cudaLaunchKernelExC's configuration (what cudaLaunchKernelEx<> builds) */
enum cudaLaunchAttributeID {      /* the attributes the launch looks at; others are hints */
	cudaLaunchAttributeIgnore = 0,
	cudaLaunchAttributeCooperative = 2,
	cudaLaunchAttributeClusterDimension = 4
};

typedef union cudaLaunchAttributeValue {
	char pad[64];
	void *align;                    /* NVIDIA's members include pointers: 8-byte aligned */
	int cooperative;
	struct { unsigned int x, y, z; } clusterDim;
} cudaLaunchAttributeValue;

typedef struct cudaLaunchAttribute_st {
	enum cudaLaunchAttributeID id;
	char pad[8 - sizeof(enum cudaLaunchAttributeID)];
	cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

typedef struct cudaLaunchConfig_st {
	dim3 gridDim, blockDim;
	size_t dynamicSmemBytes;
	cudaStream_t stream;
	cudaLaunchAttribute *attrs;     /* numAttrs of them */
	unsigned int numAttrs;
} cudaLaunchConfig_t;

/* ---- registration and launch: what nvcc's generated host code calls ---- */

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant,
                       int global);
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global);
char __cudaInitModule(void **handle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     cudaStream_t stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream);

/* ---- errors ---- */

cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);

/* ---- devices ---- */

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);

/* ---- memory ---- */

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                              size_t height, cudaStream_t stream);
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                         struct cudaExtent extent);
cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                              struct cudaExtent extent, cudaStream_t stream);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                     unsigned int flags);
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                    void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                    void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count);
cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind,
                                    cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                      size_t offset, enum cudaMemcpyKind kind,
                                      cudaStream_t stream);
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location);
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f);

/* ---- CUDA arrays, textures and surfaces (array.c, texture.c) ---- */

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned int flags);
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                  size_t wOffset, size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width,
                                     size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream);
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum cudaMemcpyKind kind,
                                   cudaStream_t stream);
cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                     cudaStream_t stream);
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc,
                                     size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaSurfaceObject_t surfObject);

/* ---- streams and events ---- */

cudaError_t cudaStreamCreate(cudaStream_t *pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                         int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                     unsigned int flags);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* ---- kernels ---- */

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream);
cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr);
cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
cudaError_t cudaFuncGetName(const char **name, const void *func);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                           const cudaLaunchConfig_t *config);
cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                 const cudaLaunchConfig_t *config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                      int numBlocks, int blockSize);

/* ---- graphs and stream capture (graph.c, capture.c): types and functions ---- */

#include "cudart_graph.h"

#endif
