"""Tests of libcudart.so.13, rfsim's drop-in CUDA runtime (src/cudart/).

CUDA programs in tests/cudart/ are built here with nvcc exactly as a user
would (-cudart shared) and run unmodified with LD_LIBRARY_PATH pointing at
rfsim's build directory; each checks its own results and prints PASS.
They cover what issue 11 asks for: nvcc's default zstd-compressed PTX,
--no-compress and LZ4 builds, __constant__/__device__/__managed__ variables
with initializers, dynamic shared memory, several kernels on streams with
events, struct arguments, and the error behaviour.  A second group is
written the way textbook and sample programs use the host API: pitched 2D
and 3D memory, constant tables and symbols with offsets, templated and
many-parameter kernels, pinned memory and copies overlapped on streams,
device queries and occupancy, two translation units and cudaDeviceReset,
every common launch and copy mistake (errpaths.cu) and device faults
(faults.cu: out of bounds, assert, endless kernels).  CUDA graphs
(graphs.cu: stream capture with fork and join, explicit graphs, updates,
what capture forbids) and cooperative launches (coopgrid.cu: grid.sync()
in a loop under both cores and every register-file model, oversized grids,
a grid deadlock) have programs of their own, and so does relocatable
device code (rdc_main.cu and two more units: nvcc -rdc=true, PTX only, -dc
with a separate device link; rdc_hand.c: what is refused), and dynamic
parallelism (rdc_dynpar.cu, dynpar.cu: recursive quicksort, tail launches,
the pending-launch and nesting limits; dynpar_hand.c without nvcc).
A further group is what a new
user brought: libcu++'s cuda::barrier and cuda::pipeline (barrier.cu:
mbarrier objects), cooperative_groups tiles wider than a warp and a -G
build (reduce_t.cu: NVIDIA's reserved shared memory), cuRAND's device
API, libcu++ atomics and complex numbers, n-body, histograms, odd-even
merge sort, a BFS work queue with a synchronisation-free triangular
solve, a 2D FFT, texture filters the way simpleTexture and
convolutionTexture write them, and lanes that wait for lanes of their own
warp (itslock.cu: spin locks, a flag handed between lanes, needing Volta's
independent thread scheduling), and eight host threads calling the runtime
at once (hostthreads.cu).
Every built-in workload is built the same way from its unchanged sources
(tests/cudart/workloads/) and must report exactly what `rfsim run NAME
--size small` reports, kernel for kernel.

Tests that need nvcc skip without it (CI has no toolkit); those that need
only a C compiler -- the exported symbol list, the hand-built fatbins of
fatbin_hand.c, graphs, capture and grid.sync() from C in graph_hand.c, every
device attribute through both APIs in devattr.c -- always run.  The library is the one beside $RFSIM
(build/ by default; build-san/ under `make san`, which is run with the
sanitizer runtime preloaded).
"""

import fcntl
import json
import os
import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rfsim_test import models

ROOT = Path(__file__).resolve().parent.parent
RFSIM = Path(os.environ.get("RFSIM", "build/rfsim"))
if not RFSIM.is_absolute():
    RFSIM = ROOT / RFSIM
BUILD = RFSIM.parent
LIB = BUILD / "libcudart.so.13"
SRC = ROOT / "tests" / "cudart"
NVCC = shutil.which("nvcc") or next(
    (p for p in ["/usr/local/cuda/bin/nvcc"] if Path(p).exists()), None)
CUDA_INC = Path(NVCC).resolve().parent.parent / "include" if NVCC else None

needs_nvcc = pytest.mark.skipif(
    NVCC is None, reason="nvcc not found: building the CUDA test programs "
    "(tests/cudart/*.cu) needs the CUDA 13 toolkit")

RDC_SRC = ["rdc_main.cu", "rdc_lib.cu", "rdc_host.cu"]
# program -> nvcc options (besides -cudart shared); several builds of vecadd.cu
PROGRAMS = {
    "vecadd": ("vecadd.cu", []),                        # nvcc default: zstd PTX
    "vecadd_nocompress": ("vecadd.cu", ["--no-compress"]),
    "vecadd_lz4": ("vecadd.cu", ["-compress-mode=speed"]),
    "vecadd_sass": ("vecadd.cu", ["-gencode", "arch=compute_90,code=sm_90"]),
    "vecadd_ptx86": ("vecadd.cu", ["-gencode", "arch=compute_86,code=compute_86",
                                   "-DEXPECT_PTX=86"]),
    "symbols": ("symbols.cu", ["-arch=sm_80"]),
    "managed": ("managed.cu", []),
    "dynshared": ("dynshared.cu", ["-gencode", "arch=compute_80,code=compute_80"]),
    "streams": ("streams.cu", []),
    "structarg": ("structarg.cu", []),
    "errors": ("errors.cu", []),
    "devprintf": ("devprintf.cu", []),
    # host-side API as textbook programs use it (and the error paths)
    "pitch3d": ("pitch3d.cu", ["-arch=sm_80", "-O2"]),
    "symtempl": ("symtempl.cu", ["-arch=sm_80", "-O2"]),
    "asyncpipe": ("asyncpipe.cu", []),
    "devquery": ("devquery.cu", ["-arch=sm_80", "-O2"]),
    "errpaths": ("errpaths.cu", ["-arch=sm_80"]),
    "multitu": (["multitu_main.cu", "multitu_kern.cu"], []),
    "faults": ("faults.cu", ["-arch=sm_80", "-O2"]),      # run per mode, below
    # device code rfsim added later: tensor cores, asynchronous copies
    "wmma_gemm": ("wmma_gemm.cu", ["-arch=sm_80"]),          # <mma.h>: wmma.load/mma/store
    "memcpy_async": ("memcpy_async.cu", ["-arch=sm_80"]),    # cp.async double buffering
    "mma_gemm": ("mma_gemm.cu", ["-arch=sm_80"]),            # inline mma.sync + ldmatrix
    "heaplimit": ("heaplimit.cu", ["-arch=sm_80", "-O2"]),   # cudaLimitMallocHeapSize
    # nvcc --default-stream per-thread: __cudaLaunchKernel_ptsz, cudaMemcpyAsync_ptsz, ...
    "streams_ptds": ("streams.cu", ["--default-stream", "per-thread"]),
    # device code rfsim had never seen (each pins bugs fixed with it)
    "cxxfeatures": ("cxxfeatures.cu", ["-arch=sm_80", "-O2"]),  # virtual, fn pointers, new
    "mathlib": ("mathlib.cu", ["-arch=sm_80", "-O2"]),
    "halfbf16": ("halfbf16.cu", ["-arch=sm_80", "-O2"]),        # cvt.rn.f16x2.f32
    "intrinsics": ("intrinsics.cu", ["-arch=sm_80", "-O2"]),    # vabsdiff4, atomics
    "warpcg": ("warpcg.cu", ["-arch=sm_80", "-O2"]),            # membermask groups
    "cubblock": ("cubblock.cu", ["-arch=sm_80", "-O2"]),        # CUB: slow to build
    "thrustops": ("thrustops.cu", ["-arch=sm_80", "-O2"]),      # Thrust: slow to build
    # kernels for the register-file models' compiler passes (run under every model below)
    "ctrlflow": ("ctrlflow.cu", ["-arch=sm_80", "-O2"]),        # goto/switch/early return, recursion
    "fencereduce": ("fencereduce.cu", ["-arch=sm_80", "-O2"]),  # barriers in loops, CTA waves
    "regpressure": ("regpressure.cu", ["-arch=sm_80", "-O2"]),  # 80 live values: spills
    # CUDA arrays, texture and surface objects: tex, tld4, suld, sust
    "textures": ("textures.cu", ["-arch=sm_80", "-O2", "-Wno-deprecated-declarations"]),
    # CUDA graphs: stream capture (fork/join), explicit graphs, exec updates, capture errors
    "graphs": ("graphs.cu", ["-arch=sm_80", "-O2"]),
    "graphs_ptds": ("graphs.cu",
                    ["-arch=sm_80", "-O2", "--default-stream", "per-thread"]),
    # cooperative launches: grid.sync() in a loop, oversized grids, grid deadlock
    "coopgrid": ("coopgrid.cu", ["-arch=sm_80", "-O2"]),
    # relocatable device code: three units joined by the device link (rdc_main.cu);
    # PTX only, the device link also lists libcudadevrt's unit; machine code only is
    # refused
    "rdc": (RDC_SRC, ["-rdc=true", "-arch=sm_80", "-O2"]),
    "rdc_ptx": (RDC_SRC, ["-rdc=true", "-gencode", "arch=compute_80,code=compute_80"]),
    "rdc_sass": (RDC_SRC, ["-rdc=true", "-gencode", "arch=compute_80,code=sm_80"]),
    # dynamic parallelism (CDP2): kernels launching kernels
    "rdc_dynpar": ("rdc_dynpar.cu", ["-rdc=true", "-arch=sm_80"]),
    "dynpar": ("dynpar.cu", ["-rdc=true", "-arch=sm_80", "-O2"]),
    # programs a new user brought (each pins the bugs fixed with it)
    "barrier": ("barrier.cu", ["-arch=sm_80", "-O2"]),          # cuda::barrier/pipeline: mbarrier
    "barrier_sm90": ("barrier.cu", ["-arch=sm_90", "-O2"]),     # try_wait, arrive with a count
    "barrier_G": ("barrier.cu", ["-arch=sm_80", "-G"]),         # waits inside called functions
    "reduce_t": ("reduce_t.cu", ["-arch=sm_80", "-O2"]),        # cg tiles wider than a warp
    "reduce_t_G": ("reduce_t.cu", ["-arch=sm_80", "-G"]),       # -G: %reserved_smem_offset_1
    "curandmc": ("curandmc.cu", ["-arch=sm_80", "-O2"]),        # cuRAND XORWOW, Philox
    "libcupp": ("libcupp.cu", ["-arch=sm_90", "-O2"]),          # atomic_ref, complex, span
    "nbody": ("nbody.cu", ["-arch=sm_80", "-O2"]),              # float4, rsqrtf, launch_bounds
    "histo": ("histo.cu", ["-arch=sm_80", "-O2"]),              # per-warp sub-histograms
    "oddeven": ("oddeven.cu", ["-arch=sm_80", "-O2", "-lineinfo"]),  # odd-even merge sort
    "bfs": ("bfs.cu", ["-arch=sm_80", "-O2"]),                  # work queue, sync-free SpTRSV
    "fft": ("fft.cu", ["-arch=sm_90", "-O2"]),                  # __sincosf, templated extern smem
    "texfilter": ("texfilter.cu", ["-arch=sm_80", "-O2"]),      # rotate, texture->surface conv
    "itslock": ("itslock.cu", ["-arch=sm_80", "-O2"]),          # lanes waiting for lanes (ITS)
    "hostthreads": ("hostthreads.cu", ["-arch=sm_80", "-O2"]),  # 8 host threads at once
    "int128": ("int128.cu", ["-arch=sm_80", "-O2"]),            # __int128 /, %: sub.cc's flag
    "pdl": ("pdl.cu", ["-arch=sm_90", "-O2"]),                  # griddepcontrol, cudaLaunchKernelEx
    "elect": ("elect.cu", ["-arch=sm_90", "-O2"]),              # elect.sync, cg::invoke_one
    "syncpreds": ("syncpreds.cu", ["-arch=sm_80", "-O2"]),      # __syncthreads_count, cg scans
    "mempool": ("mempool.cu", ["-arch=sm_80", "-O2"]),          # memory pools, host functions
    "clusters": ("clusters.cu", ["-arch=sm_90", "-O2"]),        # thread-block clusters, DSMEM
    "bulkcopy": ("bulkcopy.cu", ["-arch=sm_90", "-O2"]),        # memcpy_async: cp.async.bulk
    "dpx": ("dpx.cu", ["-arch=sm_90", "-O2"]),                  # max.s16x2.relu, 3-input min
    "dpx_sm80": ("dpx.cu", ["-arch=sm_80", "-O2"]),
    "fp8": ("fp8.cu", ["-arch=sm_90", "-O2"]),                  # cvt to and from e4m3x2/e5m2x2
    "fp8_sm80": ("fp8.cu", ["-arch=sm_80", "-O2"]),             # the headers' own conversions
    "vatom": ("vatom.cu", ["-arch=sm_90", "-O2"]),              # atom.global.add.v4.f32
    "mempool_ptds": ("mempool.cu", ["-arch=sm_80", "-O2", "--default-stream", "per-thread"]),
}
PASSING = [p for p in PROGRAMS if p not in ("vecadd_sass", "faults", "rdc_sass")]
# every built-in workload, in workloads.def order
WORKLOADS = re.findall(r"^X\((\w+),", (ROOT / "workloads" / "workloads.def").read_text(), re.M)
# programs are built once into the source tree's build/ and reused by later
# runs (the sanitizer run, reruns) while no source or flag changed: they link
# libcudart dynamically, so one build serves every build of the library
PROG_DIR = ROOT / "build" / "cudart-progs"
# the flags of `make ptx`, so the embedded PTX is the committed PTX
WL_FLAGS = ["-gencode", "arch=compute_80,code=compute_80", "-O3", "-lineinfo"]


def lib_env(**extra):
    """Environment for running a program on rfsim's runtime."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RFSIM_")}
    env["LD_LIBRARY_PATH"] = str(BUILD)
    asan = re.search(r"=> (\S*libasan\.so\S*) \(", ldd(LIB))
    if asan:  # a sanitizer build must be loaded first
        env["LD_PRELOAD"] = asan.group(1)
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    env.update({k: str(v) for k, v in extra.items()})
    return env


def ldd(path):
    return subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout


def run(exe, *args, **env):
    assert LIB.exists(), f"{LIB} not built (run make)"
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          env=lib_env(**env), timeout=600)


def passed(p):
    assert p.returncode == 0 and "PASS" in p.stdout, \
        f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p


def nvcc(out, sources, flags):
    cmd = [NVCC, "-cudart", "shared", *flags, "-I", str(SRC), "-o", str(out),
           *map(str, sources)]
    stamp = out.with_suffix(".cmd")
    if (out.exists() and stamp.exists() and stamp.read_text() == " ".join(cmd)
            and all(Path(s).stat().st_mtime < out.stat().st_mtime     # headers: check.h, ...
                    for s in [*sources, *SRC.glob("*.h"), *SRC.glob("*.cuh")])):
        return out
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"{' '.join(cmd)}\n{p.stderr}"
    stamp.write_text(" ".join(cmd))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Build every program and workload once, in parallel: name -> path."""
    if NVCC is None:
        pytest.skip("nvcc not found")
    d = PROG_DIR
    d.mkdir(parents=True, exist_ok=True)
    # test_cudart_differential.py shares this fixture and may run at once in
    # another pytest-xdist worker: one builds while the other waits, then
    # finds every program up to date
    lock = open(d / ".lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    jobs = {name: (d / name, [SRC / f for f in ([src] if isinstance(src, str) else src)], flags)
            for name, (src, flags) in PROGRAMS.items()}
    for w in WORKLOADS:
        wl = ROOT / "workloads"
        srcs = [wl / w / f"{w}.cu", wl / w / f"{w}.c", wl / "wl_util.c",
                SRC / "workloads" / "cu_on_cudart.c", SRC / "workloads" / "wl_main.c"]
        jobs[f"wl_{w}"] = (d / f"wl_{w}", srcs, WL_FLAGS + [f"-DWL={w}", "-I", str(wl)])
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as ex:
        futures = {name: ex.submit(nvcc, *job) for name, job in jobs.items()}
        try:
            return {name: f.result() for name, f in futures.items()}
        finally:
            lock.close()


# ---- the library itself (no toolkit needed) --------------------------------

def stub_names():
    text = (ROOT / "src" / "cudart" / "stubs.def").read_text()
    return set(re.findall(r"^X\((\w+)\)$", text, re.M))


def test_exports_nvidias_whole_api_with_its_version():
    out = subprocess.run(["nm", "-D", "--defined-only", str(LIB)], capture_output=True,
                         text=True, check=True).stdout
    funcs = {}
    for line in out.splitlines():
        _, kind, sym = line.split()
        if kind in "TW":
            name, _, version = sym.partition("@@")
            funcs[name] = (kind, version)
    assert set(funcs) == stub_names(), "exports differ from NVIDIA's list (stubs.def)"
    assert {v for _, v in funcs.values()} == {"libcudart.so.13"}
    for name in ["cudaMalloc", "cudaLaunchKernel", "__cudaRegisterFatBinary",
                 "__cudaLaunchKernel", "cudaEventElapsedTime", "cudaGetDeviceProperties"]:
        assert funcs[name][0] == "T", f"{name} is still a stub"
    dyn = subprocess.run(["readelf", "-d", str(LIB)], capture_output=True, text=True).stdout
    assert "Library soname: [libcudart.so.13]" in dyn


@pytest.mark.skipif(not (CUDA_INC and (CUDA_INC / "cuda_runtime_api.h").exists()),
                    reason="NVIDIA's cuda_runtime_api.h not found (CUDA toolkit)")
def test_struct_layouts_are_cuda13s(tmp_path):
    outs = []
    for tag, inc in [("nv", ["-include", "cuda_runtime_api.h", "-I", str(CUDA_INC)]),
                     ("rf", ["-include", str(ROOT / "src" / "cudart" / "cudart.h")])]:
        exe = tmp_path / f"layout_{tag}"
        subprocess.run(["cc", "-std=c11", *inc, str(SRC / "layout.c"), "-o", str(exe)],
                       check=True)
        outs.append(subprocess.run([str(exe)], capture_output=True, text=True,
                                   check=True).stdout)
    assert outs[0] == outs[1]


def test_hand_built_fatbins_plain_zstd_lz4(tmp_path):
    exe = tmp_path / "fatbin_hand"
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-I", str(ROOT / "src" / "cudart"),
                    str(SRC / "fatbin_hand.c"), "-L", str(BUILD), "-l:libcudart.so.13",
                    "-lzstd", "-llz4", "-o", str(exe)], check=True)
    p = passed(run(exe, ROOT / "workloads" / "saxpy" / "saxpy.ptx"))
    assert p.stderr.count("saxpy<<<(4,1,1),(128,1,1)>>>") == 5
    assert "no PTX, only machine code for sm_90" in p.stderr
    assert "-gencode arch=compute_90,code=compute_90" in p.stderr


# What each built-in config's device reports (issue 20, item 10: asyncEngineCount
# and concurrentKernels read 0, which no GPU reports, and a program took its
# untested "no overlap" path and crashed).  Values of src/api/devattr.def, by
# source: [k] a config key, [cc] the compute capability gpu.cc and the CUDA
# Programming Guide's feature set for it, [b] the modelled board (NVIDIA
# deviceQuery outputs; configs/*.cfg cite them), [r] what rfsim's runtime does.
# fermi-gtx480, maxwell-ltrf and gebhart-isca11 report gpu.cc's default 8.0, so
# that sm_80 programs load; hopper-h100 9.0.
DEVICE_COMMON = {
    "CONCURRENT_KERNELS": 1,             # [cc] every GPU since 2.0
    "UNIFIED_ADDRESSING": 1,             # [cc] 64-bit hosts since 2.0
    "MANAGED_MEMORY": 1,                 # [cc] since 3.0; [r] cudaMallocManaged
    "CONCURRENT_MANAGED_ACCESS": 1,      # [cc] since 6.0 (Linux)
    "COMPUTE_PREEMPTION_SUPPORTED": 1,   # [cc] since 6.0
    "COOPERATIVE_LAUNCH": 1,             # [cc] since 6.0; [r] grid.sync() runs
    "COOPERATIVE_MULTI_DEVICE_LAUNCH": 0,  # gone from CUDA 13; one device
    "CAN_MAP_HOST_MEMORY": 1,            # [r] pinned memory mapped
    "MEMORY_POOLS_SUPPORTED": 1,         # [r] mempool.c
    "CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM": 0,  # [r] registered memory: copies only
    "MAX_PERSISTING_L2_CACHE_SIZE": 0,   # [r] not modelled: programs skip access policies
    "TENSOR_MAP_ACCESS_SUPPORTED": 0,    # [r] no TMA
    "VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED": 0,  # [r] no cuMemCreate
    "MAXIMUM_TEXTURECUBEMAP_WIDTH": 0,   # [r] no cube maps
    "MAXIMUM_TEXTURE2D_WIDTH": 131072,   # [r] array.c's limits, sm_80's
    "CAN_TEX2D_GATHER": 1,               # [r] tld4
    "WARP_SIZE": 32, "MAX_THREADS_PER_BLOCK": 1024, "MAX_BLOCK_DIM_Z": 64,
    "MAX_GRID_DIM_X": 2**31 - 1, "TOTAL_CONSTANT_MEMORY": 65536,
    "ECC_ENABLED": 0, "INTEGRATED": 0, "NUMA_ID": -1, "HOST_NUMA_ID": -1,
}
DEVICE = {  # [k] values follow from configs/NAME.cfg; memory clock and bus width
    # make 2 x clock x width / 8 the simulated DRAM bandwidth: dram.clock_mhz x
    # dram.data_rate / 2 and dram.channels x dram.bus_bytes x 8 (deviceQuery on a
    # GTX 480: 1848 MHz, 384 bits; GTX 980: 3505 MHz, 256 bits; H100 SXM: 2619
    # MHz, 5120 bits)
    "fermi-gtx480": {
        "ASYNC_ENGINE_COUNT": 1, "GPU_OVERLAP": 1,   # [b] GeForce GTX 480: 1 copy engine
        "COMPUTE_CAPABILITY_MAJOR": 8, "COMPUTE_CAPABILITY_MINOR": 0,  # [k] gpu.cc 80
        "MULTIPROCESSOR_COUNT": 15, "CLOCK_RATE": 1400000,          # [k] kHz
        "GLOBAL_MEMORY_BUS_WIDTH": 384, "MEMORY_CLOCK_RATE": 1848000,  # 924 MHz GDDR5
        "L2_CACHE_SIZE": 786432, "MAX_REGISTERS_PER_MULTIPROCESSOR": 32768,
        "MAX_REGISTERS_PER_BLOCK": 32768, "MAX_THREADS_PER_MULTIPROCESSOR": 1536,
        "MAX_BLOCKS_PER_MULTIPROCESSOR": 8, "MAX_SHARED_MEMORY_PER_BLOCK": 49152,
        "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 49152, "RESERVED_SHARED_MEMORY_PER_BLOCK": 0,
        "GLOBAL_L1_CACHE_SUPPORTED": 1, "LOCAL_L1_CACHE_SUPPORTED": 1,  # [k] 16 KB L1
        "SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO": 8,  # [k] pipe.sp 2/2, pipe.dp 1/8
        "CLUSTER_LAUNCH": 0, "MEM_SYNC_DOMAIN_COUNT": 1,            # [cc] before 9.0
    },
    "maxwell-ltrf": {
        "ASYNC_ENGINE_COUNT": 2, "GPU_OVERLAP": 1,   # [b] GeForce Maxwell: 2 (estimate)
        "COMPUTE_CAPABILITY_MAJOR": 8, "COMPUTE_CAPABILITY_MINOR": 0,
        "MULTIPROCESSOR_COUNT": 24, "CLOCK_RATE": 1137000,
        "GLOBAL_MEMORY_BUS_WIDTH": 256, "MEMORY_CLOCK_RATE": 3500000,  # 1750 MHz GDDR5
        "L2_CACHE_SIZE": 2097152, "MAX_REGISTERS_PER_MULTIPROCESSOR": 65536,
        "MAX_REGISTERS_PER_BLOCK": 65536, "MAX_THREADS_PER_MULTIPROCESSOR": 2048,
        "MAX_BLOCKS_PER_MULTIPROCESSOR": 32, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 65536,
        "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 49152,
        "SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO": 32,  # [k] pipe.sp 4/1, pipe.dp 4/32
        "CLUSTER_LAUNCH": 0,
    },
    "gebhart-isca11": {
        "ASYNC_ENGINE_COUNT": 1,                     # [b] as the GTX 480
        "MULTIPROCESSOR_COUNT": 1, "CLOCK_RATE": 1400000,
        "GLOBAL_MEMORY_BUS_WIDTH": 256, "MEMORY_CLOCK_RATE": 700000,  # 1 x 32 B/cycle
        "L2_CACHE_SIZE": 0,                          # [k] l2.bytes = 0
        "GLOBAL_L1_CACHE_SUPPORTED": 0, "LOCAL_L1_CACHE_SUPPORTED": 0,  # [k] l1.bytes = 0
        "MAX_THREADS_PER_MULTIPROCESSOR": 1024, "MAX_SHARED_MEMORY_PER_BLOCK": 32768,
        "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 32768, "SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO": 8,
    },
    "hopper-h100": {
        "ASYNC_ENGINE_COUNT": 3, "GPU_OVERLAP": 1,   # [b] H100 80GB HBM3: 3 copy engines
        "COMPUTE_CAPABILITY_MAJOR": 9, "COMPUTE_CAPABILITY_MINOR": 0,  # [k] gpu.cc 90
        "MULTIPROCESSOR_COUNT": 132, "CLOCK_RATE": 1755000,
        "GLOBAL_MEMORY_BUS_WIDTH": 5120, "MEMORY_CLOCK_RATE": 2618000,  # 1309 MHz HBM3
        "L2_CACHE_SIZE": 52428800, "MAX_REGISTERS_PER_MULTIPROCESSOR": 65536,
        "MAX_THREADS_PER_MULTIPROCESSOR": 2048, "MAX_BLOCKS_PER_MULTIPROCESSOR": 32,
        "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 233472, "MAX_SHARED_MEMORY_PER_BLOCK": 49152,
        "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 232448,
        "RESERVED_SHARED_MEMORY_PER_BLOCK": 1024,    # [k] sm.shared_reserved_bytes
        "SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO": 2,  # [k] pipe.sp 4/1, pipe.dp 4/2
        "CLUSTER_LAUNCH": 1, "MEM_SYNC_DOMAIN_COUNT": 4,            # [cc] 9.0
    },
}


def devattr_rows():
    """(kind, NAME, number, cudaDevAttr name or None) of src/api/devattr.def."""
    text = (ROOT / "src" / "api" / "devattr.def").read_text()
    return [(k, n, int(num), rt or None) for k, n, num, rt in
            re.findall(r"^(D[APD])\((\w+),\s*(\d+)(?:,\s*(cudaDevAttr\w+))?", text, re.M)]


@pytest.fixture(scope="module")
def devattr_exe(tmp_path_factory):
    """tests/cudart/devattr.c with librfsim.a's driver layer and libcudart.so.13."""
    exe = tmp_path_factory.mktemp("devattr") / "devattr"
    san = ["-fsanitize=address,undefined"] if sanitized() else []
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", *san,
                    *[f"-I{ROOT / d}" for d in ("", "src", "src/api", "src/base", "src/cudart")],
                    str(SRC / "devattr.c"), str(BUILD / "librfsim.a"), "-L", str(BUILD),
                    "-l:libcudart.so.13", "-lm", "-o", str(exe)], check=True)
    return exe


@pytest.mark.parametrize("config", sorted(DEVICE))
def test_device_attributes_are_the_modelled_gpus(devattr_exe, config):
    """Every attribute number of CUDA 13 answers, with one value through
    cuDeviceGetAttribute, cudaDeviceGetAttribute and cudaDeviceProp's field
    (devattr.c checks), and the values are the modelled GPU's."""
    cfg = ROOT / "configs" / f"{config}.cfg"
    p = passed(run(devattr_exe, cfg, RFSIM_CONFIG=cfg))
    got = {m[0]: (int(m[1]), int(m[2]))
           for m in re.findall(r"^([A-Z0-9_]+) (\d+) (-?\d+)$", p.stdout, re.M)}
    assert sorted(num for num, _ in got.values()) == list(range(1, 148))
    values = {name: v for name, (_, v) in got.items()}
    want = {**DEVICE_COMMON, **DEVICE[config]}
    assert {k: values[k] for k in want} == want
    assert f"name rfsim {config} (" in p.stdout


@pytest.mark.skipif(not (CUDA_INC and (CUDA_INC / "cuda.h").exists()),
                    reason="NVIDIA's cuda.h not found (CUDA toolkit)")
def test_device_attribute_table_is_cuda13s():
    """devattr.def and cuda.h's older names are NVIDIA's CUdevice_attribute and
    cudaDeviceAttr, name for name and number for number."""
    def enum(text, start, end, prefix):
        body = text[text.index(start):]
        body = body[:body.index(end)]
        return dict((n, int(v)) for n, v in re.findall(rf"\b({prefix}\w+)\s*=\s*(\d+)", body))
    nv_drv = enum((CUDA_INC / "cuda.h").read_text(), "typedef enum CUdevice_attribute_enum",
                  "} CUdevice_attribute;", "CU_DEVICE_ATTRIBUTE_")
    nv_rt = enum((CUDA_INC / "driver_types.h").read_text(), "enum __device_builtin__ cudaDeviceAttr",
                 "};", "cudaDevAttr")
    rows = devattr_rows()
    aliases = enum((ROOT / "src" / "api" / "cuda.h").read_text(),
                   "typedef enum CUdevice_attribute_enum", "#define DA", "CU_DEVICE_ATTRIBUTE_")
    ours_drv = {**aliases, **{f"CU_DEVICE_ATTRIBUTE_{n}": num for _, n, num, _ in rows}}
    nv_drv.pop("CU_DEVICE_ATTRIBUTE_MAX", None)
    assert ours_drv == nv_drv
    assert {rt: num for _, _, num, rt in rows if rt} == nv_rt


def test_environment_config_outside_the_repository(tmp_path):
    """Issue 20, item 8: an unknown RFSIM_CONFIG in a directory outside the
    repository listed "known: none", though the built-in configs load there:
    they are found beside the library.  A config file is read within its
    limit (/dev/zero filled memory)."""
    exe = tmp_path / "fatbin_hand"
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-I", str(ROOT / "src" / "cudart"),
                    str(SRC / "fatbin_hand.c"), "-L", str(BUILD), "-l:libcudart.so.13",
                    "-lzstd", "-llz4", "-o", str(exe)], check=True)
    ptx = ROOT / "workloads" / "saxpy" / "saxpy.ptx"

    def run_in_tmp(config):
        return subprocess.run([str(exe), str(ptx)], capture_output=True, text=True,
                              cwd=tmp_path, env=lib_env(RFSIM_CONFIG=config), timeout=600)
    p = run_in_tmp("no-such-gpu")
    known = " ".join(sorted(c.stem for c in (ROOT / "configs").glob("*.cfg")))
    assert p.returncode != 0 and "hopper-h100" in known
    assert f"RFSIM_CONFIG=no-such-gpu: unknown config 'no-such-gpu' (known: {known})" \
        in p.stderr, p.stderr
    (tmp_path / "mine.cfg").write_text("include = hopper-h100\nsm.count = 4\n")
    for name in ("maxwell-ltrf", "maxwell-ltrf.cfg", "./mine.cfg"):
        p = run_in_tmp(name)
        assert "saxpy<<<(4,1,1),(128,1,1)>>>" in p.stderr, (name, p.stderr)
    p = run_in_tmp("/dev/zero")
    assert "/dev/zero: more than 1 MiB, the limit for a config file" in p.stderr, p.stderr


def test_hand_built_device_links(tmp_path):
    """Relocatable device code without the toolkit (rdc_hand.c): a version-2
    wrapper listing two units' containers links them; an unresolved extern
    and an LTO-IR-only unit are refused at load, naming why."""
    exe = tmp_path / "rdc_hand"
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-I", str(ROOT / "src" / "cudart"),
                    str(SRC / "rdc_hand.c"), "-L", str(BUILD), "-l:libcudart.so.13",
                    "-lzstd", "-llz4", "-o", str(exe)], check=True)
    p = passed(run(exe))
    assert "ka<<<(1,1,1),(32,1,1)>>>" in p.stderr
    assert ("rdc link: unresolved extern variable 'counter' (needed by "
            "rdc_hand.1.rdc1.compute_80.ptx)") in p.stderr
    assert ("relocatable device code, translation unit 1 of 1: this program's GPU code is "
            "NVVM IR for JIT link-time optimization only (nvcc -dlto, code=lto_80)") in p.stderr


def test_hand_built_dynamic_parallelism(tmp_path):
    """Dynamic parallelism without the toolkit (dynpar_hand.c): a hand-written
    unit's kernel launches a child per thread on the NULL, tail-launch and
    fire-and-forget streams; device-side cudaDeviceSynchronize (CDP2 removed
    it) is refused by name at load; another stream stops the parent."""
    exe = tmp_path / "dynpar_hand"
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-I", str(ROOT / "src" / "cudart"),
                    str(SRC / "dynpar_hand.c"), "-L", str(BUILD), "-l:libcudart.so.13",
                    "-lzstd", "-llz4", "-o", str(exe)], check=True)
    p = passed(run(exe))
    lines = re.findall(r"^rfsim: (\w+)<<<\(1,1,1\),\((\d+),1,1\)>>>", p.stderr, re.M)
    assert lines == [("parent", "4")] + [("child", "32")] * 4 + [("parent", "4")], p.stderr
    assert ("rdc link: cudaDeviceSynchronize in dynpar_hand.1.rdc1.compute_80.ptx: "
            "device-side cudaDeviceSynchronize was removed by CUDA 12's dynamic "
            "parallelism (CDP2)") in p.stderr
    assert ("device-side launch into stream 0x5: rfsim's dynamic parallelism takes only "
            "NULL, cudaStreamTailLaunch and cudaStreamFireAndForget") in p.stderr


def test_hand_built_graphs_capture_and_cooperative_launch(tmp_path):
    """Graphs, stream capture and grid.sync() without the CUDA toolkit: C
    host code (graph_hand.c) on the saxpy workload's PTX and nvcc's
    grid.sync() from the PTX corpus, in hand-built fatbins."""
    exe = tmp_path / "graph_hand"
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-I", str(ROOT / "src" / "cudart"),
                    str(SRC / "graph_hand.c"), "-L", str(BUILD), "-l:libcudart.so.13",
                    "-lzstd", "-llz4", "-o", str(exe)], check=True)
    for mode in ("timing", "functional"):
        p = passed(run(exe, ROOT / "workloads" / "saxpy" / "saxpy.ptx",
                       ROOT / "tests" / "ptx" / "gridsync.sm80.ptx",
                       RFSIM_SET=f"sim.mode={mode}"))
        assert p.stderr.count("saxpy<<<(4,1,1),(256,1,1)>>>") == 5, p.stderr
        assert "cudaMemcpy: not permitted while a stream captures in global mode" in p.stderr
        # the PTX name where the process has no C++ demangler to lend (a C
        # program; under AddressSanitizer its runtime lends one)
        assert re.search(r"(gridsum|_Z7gridsumPjS_S_ii)<<<\(30,1,1\),\(64,1,1\)>>>", p.stderr)
        assert "cannot all be resident at once" in p.stderr


def test_ptx_managed_variable_parses(tmp_path):
    """Pins: nvcc declares a __managed__ variable `.attribute(.managed)`,
    which the PTX parser once refused, so no program using one loaded."""
    ptx = tmp_path / "managed.ptx"
    ptx.write_text(""".version 9.0
.target sm_80
.address_size 64
.global .attribute(.managed) .align 4 .u32 hits = 5;
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u32 %r1, [hits];
	st.global.u32 [%rd2], %r1;
	ret;
}
""")
    p = subprocess.run([str(RFSIM), "run", str(ptx), "-g", "1", "-b", "1", "-a",
                        "buf:u32:1:zero", "--dump", str(tmp_path)], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "arg0.bin").read_bytes() == (5).to_bytes(4, "little")


# ---- CUDA programs built with nvcc ------------------------------------------

def sanitized():
    return "libasan" in ldd(LIB)


@needs_nvcc
@pytest.mark.parametrize("name", PASSING)
def test_program_verifies_itself(built, name):
    if name == "managed" and sanitized():
        pytest.skip("managed memory needs the simulator's device addresses, which "
                    "AddressSanitizer's shadow memory occupies")
    p = passed(run(built[name]))
    assert re.search(r"^rfsim: .+<<<\(\d+,\d+,\d+\),\(\d+,\d+,\d+\)", p.stderr, re.M), \
        "no per-kernel summary line"


@needs_nvcc
def test_kernel_line_names_the_cxx_kernel_with_cycles(built):
    """The per-kernel line names a kernel as its source does (demangled,
    template arguments kept, return type and parameters dropped; a long
    Thrust/CUB instance keeps its template's name) and gives the timing
    model's cycles and IPC; --functional runs have no cycles."""
    p = passed(run(built["symtempl"]))
    lines = [ln for ln in p.stderr.splitlines() if ln.startswith("rfsim: ")]
    axpy = [ln for ln in lines if ln.startswith("rfsim: axpy<")]
    assert axpy and all("_Z" not in ln for ln in lines), lines
    m = re.search(r"(\d+) warp insts, \d+ thread insts, (\d+) cycles, IPC ([\d.]+),",
                  axpy[0])
    assert m and int(m.group(2)) > 0, axpy[0]
    assert abs(int(m.group(1)) / int(m.group(2)) - float(m.group(3))) < 0.01
    p = passed(run(built["thrustops"]))
    assert re.search(r"^rfsim: cub::\S+<\.\.\.><<<", p.stderr, re.M), p.stderr
    p = passed(run(built["symtempl"], RFSIM_SET="sim.mode=functional"))
    assert "axpy<" in p.stderr and " cycles" not in p.stderr


@needs_nvcc
def test_fatbin_compression_as_built(built):
    zstd_magic, text = b"\x28\xb5\x2f\xfd", b".visible .entry _Z6vecadd"
    default = built["vecadd"].read_bytes()
    plain = built["vecadd_nocompress"].read_bytes()
    assert zstd_magic in default and text not in default
    assert text in plain


@needs_nvcc
def test_machine_code_only_says_how_to_rebuild(built):
    p = run(built["vecadd_sass"])
    assert p.returncode != 0
    assert "no PTX, only machine code for sm_90" in p.stderr
    assert "-gencode arch=compute_90,code=compute_90" in p.stderr
    assert "cudaErrorNoKernelImageForDevice" in p.stderr


@needs_nvcc
def test_unsupported_call_names_itself(built):
    p = passed(run(built["errors"]))
    assert "rfsim: cudaDeviceEnablePeerAccess is not supported" in p.stderr
    assert "in kernel _Z8write_atPix, block (0,0,0), thread (0,0,0)" in p.stderr


@needs_nvcc
def test_per_thread_default_stream_entry_points(built):
    """A --default-stream per-thread build calls the _ptds/_ptsz entry
    points (nvcc's headers rename the calls), and they run: no 'not
    supported' on stderr."""
    syms = subprocess.run(["nm", "-D", "--undefined-only", str(built["streams_ptds"])],
                          capture_output=True, text=True).stdout
    assert "__cudaLaunchKernel_ptsz" in syms and "cudaMemcpyAsync_ptsz" in syms, syms
    p = passed(run(built["streams_ptds"]))
    assert "not supported" not in p.stderr, p.stderr


@needs_nvcc
def test_graph_kernels_are_launches_in_the_statistics(built, tmp_path):
    """A graph's kernel nodes run through the launch path: each launch of
    the instantiated Jacobi graph (10, then 1 after SetParams) adds its two
    sweeps to the per-kernel lines and to RFSIM_STATS, in graph order."""
    stats = tmp_path / "run.json"
    p = passed(run(built["graphs"], RFSIM_STATS=stats))
    assert len(re.findall(r"^rfsim: jacobi<<<", p.stderr, re.M)) == 22, p.stderr
    names = [k["name"] for k in json.loads(stats.read_text())["kernels"]]
    sweep = ["_Z6jacobiPKfPfS0_if"] * 2 + ["_Z8residualPKfS0_Pfi", "_Z4bumpPi"]
    first = names.index(sweep[0])
    assert names[first:first + 40] == sweep * 10, names
    refused = ("cudaGraphAddMemAllocNode: graph memory allocation nodes are not supported",
               "cudaGraphAddNode: conditional graph nodes are not supported")
    assert all(r in p.stderr for r in refused), p.stderr
    rest = p.stderr
    for r in refused:
        rest = rest.replace(r, "")
    assert "not supported" not in rest, rest


@needs_nvcc
@pytest.mark.parametrize("mode", ["timing", "functional"])
def test_cooperative_grid_sync_in_both_cores(built, mode):
    """grid.sync() needs every block of the grid resident: the timing core
    holds them all, the functional core runs them interleaved.  The oversized
    grid is refused with the occupancy arithmetic; a genuine grid deadlock
    (block 0 never arrives) is still reported, as a livelock of the spinning
    warps; grid.sync() outside a cooperative launch traps."""
    p = passed(run(built["coopgrid"], RFSIM_SET=f"sim.mode={mode}"))
    # the program asks the occupancy API for the most resident blocks and
    # launches one more (blocks per SM as the kernel's register count gives
    # them: 6 at nvcc's order, 7 at compiler.schedule=latency's), x 15 SMs
    m = re.search(r"cooperative launch of \S*multiphase\S*: (\d+) blocks cannot all be "
                  r"resident at once: (\d+) blocks of 128 threads per SM", p.stderr)
    assert m and int(m.group(1)) == int(m.group(2)) * 15 + 1, p.stderr
    assert "kernel livelock: in kernel _Z5stuckPi" in p.stderr
    assert "trap instruction executed" in p.stderr
    full = int(m.group(2)) * 15
    assert len(re.findall(rf"^rfsim: multiphase<<<\((45|15|{full}),1,1\)", p.stderr, re.M)) == 3


@needs_nvcc
@pytest.mark.parametrize("mode", ["timing", "functional"])
def test_debug_build_tile_sync_waits_in_the_called_syncwarp(built, mode):
    """reduce_t.cu's bigtile built with -G: tiled_partition<128>'s sync() has
    each warp's elected lane spin on a shared barrier word while the other
    31 lanes, let go on past it (simt_release), call __syncwarp -- a call
    under -G -- whose bar.warp.sync ran without the spinning lane, and they
    reduced before the other warps had arrived: 128-thread tile sums of
    24576 instead of 456128 in functional mode, with no error.  They now
    wait in the called function until the elected lane makes the same call
    and joins them (simt_callwait, simt_join)."""
    p = passed(run(built["reduce_t_G"], RFSIM_SET=f"sim.mode={mode}"))
    assert re.search(r"^rfsim: bigtile<<<\(2,1,1\),\(256,1,1\)>>>", p.stderr, re.M), p.stderr


@needs_nvcc
def test_environment_config_and_stats(built, tmp_path):
    stats = tmp_path / "run.json"
    p = passed(run(built["vecadd"], RFSIM_CONFIG="hopper-h100",
                   RFSIM_SET="sm.count=4; seed=3", RFSIM_STATS=stats, RFSIM_QUIET=1))
    assert "4 SMs" in p.stdout and "rfsim:" not in p.stderr
    got = json.loads(stats.read_text())
    ref_file = tmp_path / "ref.json"
    ref = subprocess.run([str(RFSIM), "run", "saxpy", "--size", "small", "--stats",
                          str(ref_file)], capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    ref = json.loads(ref_file.read_text())
    assert list(got) == list(ref)
    assert list(got["totals"]) == list(ref["totals"])
    assert list(got["kernels"][0]) == list(ref["kernels"][0])
    assert list(got["config"]) == list(ref["config"])
    assert got["workload"] == "vecadd" and got["size"] is None and got["check"] == "none"
    assert got["config"]["name"] == "hopper-h100"
    assert got["config"]["sm.count"] == 4 and got["config"]["seed"] == 3
    assert [k["name"] for k in got["kernels"]] == ["_Z6vecaddPKfS0_Pfi"]
    assert got["totals"]["kernels"] == 1


@needs_nvcc
def test_bad_environment_config_is_reported(built):
    p = run(built["vecadd"], RFSIM_SET="sm.count=0")
    assert p.returncode != 0
    assert "RFSIM_SET: sm.count=0" in p.stderr
    assert "cudaErrorInitializationError" in p.stderr


@needs_nvcc
@pytest.mark.parametrize("name", WORKLOADS)
def test_workload_as_runtime_program_matches_rfsim_run(built, name, tmp_path):
    """Same kernels, same launches, same instruction counts, same verdict."""
    stats, ref_file = tmp_path / "cudart.json", tmp_path / "rfsim.json"
    p = run(built[f"wl_{name}"], "small", 1, RFSIM_STATS=stats, RFSIM_QUIET=1)
    assert p.returncode == 0, p.stdout + p.stderr
    ref = subprocess.run([str(RFSIM), "run", name, "--size", "small", "--stats",
                          str(ref_file)], capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    assert f"PASS ({p.stdout.split(' ', 1)[1].strip()})" in ref.stdout

    def launches(path):
        return [{k: v for k, v in kern.items() if k != "sim_seconds"}
                for kern in json.loads(path.read_text())["kernels"]]

    assert launches(stats) == launches(ref_file)


@needs_nvcc
def test_device_printf_lines_reach_stdout(built):
    p = passed(run(built["devprintf"]))
    # 40 + thread index; 0.5 * thread index with two decimals
    for line in ["hello from block 0 thread 0: 40 0.00", "hello from block 0 thread 1: 41 0.50",
                 "hello from block 1 thread 0: 40 0.00", "hello from block 1 thread 1: 41 0.50"]:
        assert line in p.stdout, p.stdout
    assert "Assertion `x[threadIdx.x] < 3` failed." in p.stderr, p.stderr


# ---- host-side API and error paths of ordinary programs ---------------------

@needs_nvcc
@pytest.mark.parametrize("name", ["pitch3d", "asyncpipe", "devquery", "errpaths", "multitu"])
def test_host_programs_on_hopper_config(built, name):
    """hopper-h100 allows 227 KB of shared memory per block, so devquery's
    launch above 48 KB must fail until it opts in, and then succeed."""
    p = passed(run(built[name], RFSIM_CONFIG="hopper-h100", RFSIM_QUIET=1))
    if name == "devquery":
        assert "without opting in: call cudaFuncSetAttribute(kernel, " \
               "cudaFuncAttributeMaxDynamicSharedMemorySize" in p.stderr, p.stderr
        assert "(opt-in 232448)" in p.stdout and "reversed 2 blocks of 232448" in p.stdout


DEVQUERY = {  # config -> lines of devquery's output; sources as DEVICE's above
    None: ["compute capability          8.0", "multiprocessors             15",
           "GPU clock                   1400 MHz",
           "memory clock, bus           1848 MHz, 384 bits",
           "peak memory bandwidth       177.4 GB/s",      # 2 x 1848 MHz x 384 bits
           "L2 cache                    786432 bytes",
           "concurrent copy and kernel  Yes with 1 copy engine(s)",
           "cluster launch              No"],
    "maxwell-ltrf": ["multiprocessors             24", "GPU clock                   1137 MHz",
                     "peak memory bandwidth       224.0 GB/s",   # 2 x 3500 MHz x 256 bits
                     "concurrent copy and kernel  Yes with 2 copy engine(s)"],
    "gebhart-isca11": ["multiprocessors             1", "L2 cache                    0 bytes",
                       "concurrent copy and kernel  Yes with 1 copy engine(s)",
                       "global, local L1 caching    0, 0"],
    "hopper-h100": ["compute capability          9.0", "multiprocessors             132",
                    "peak memory bandwidth       3351.0 GB/s",   # 2 x 2618 MHz x 5120 bits
                    "L2 cache                    52428800 bytes",
                    "concurrent copy and kernel  Yes with 3 copy engine(s)",
                    "cluster launch              Yes"],
}


@needs_nvcc
@pytest.mark.parametrize("config", DEVQUERY, ids=lambda c: c or "default")
def test_device_query_numbers(built, config):
    """Pins: memory clock, bus width and L2 size read 0, so a program's peak
    bandwidth (2 x clock x width / 8) came out 0; shared memory per block is
    48 KB before opt-in.  The bandwidth is the config's DRAM bandwidth.  Issue
    20, item 10: asyncEngineCount and concurrentKernels read 0; they are the
    modelled board's copy engines and 1."""
    env = {"RFSIM_CONFIG": config} if config else {}
    p = passed(run(built["devquery"], RFSIM_QUIET=1, **env))
    for line in DEVQUERY[config] + ["concurrent kernels          Yes",
                                    "managed memory              Yes (concurrent access Yes)",
                                    "compute preemption          Yes",
                                    "cooperative launch          Yes"]:
        assert line in p.stdout, f"{line!r} not in\n{p.stdout}"


@needs_nvcc
def test_error_paths_say_what_is_wrong(built):
    """Every refused call says why on stderr, naming the call and pointer."""
    p = passed(run(built["errpaths"]))
    for text in [
            "launch of _Z3incPii: block (2048,1,1) has 2048 threads; at most 1024 allowed",
            "launch of _Z3incPii: grid (0,1,1) and block (32,1,1) must be non-zero",
            "grid (1,70000,1) exceeds (2^31-1, 65535, 65535)",
            "dynamic shared memory exceed the kernel's limit",
            "cudaMemcpyDeviceToHost): the source is not device memory of that size",
            "cudaMemset(0x", "not allocated by the runtime, or already freed",
            "not the start of an allocation"]:
        assert text in p.stderr, f"{text!r} not in\n{p.stderr}"


FAULTS = {  # faults.cu mode -> what rfsim's report must say, extra environment
    "oob": ([r"kernel fault: out-of-bounds global load of 4 bytes at address 0x[0-9a-f]+\n"
             r"  in kernel _Z6gatherPKfPfii, block \(3,0,0\), thread \(0,0,0\), "
             r"faults\.compute_80\.ptx:\d+\n.*ld\.global\.f32",
             r"nearest allocation below: .* \(4000 bytes\)"], {}),
    "oobwrite": ([r"out-of-bounds global store of 4 bytes .*\n  in kernel _Z9fill_rowsPfmii, "
                  r"block \(\d,2,0\)", r"the access starts (right|\d+ bytes) after its end"], {}),
    "assert": ([r"faults\.cu:\d+: void checked\(const int \*, int\): block \[6,0,0\], "
                r"thread \[9,0,0\] Assertion `v\[i\] >= 0` failed\."], {}),
    "spin": ([r"kernel livelock: in kernel _Z4spinPVi", r"sm 0 warp 0 \(block \(0,0,0\)"], {}),
    "count": ([r"kernel _Z5countPi stopped after 1000000 cycles \(config key sim\.max_cycles"],
              {"RFSIM_SET": "sim.max_cycles=1000000"}),
}


@needs_nvcc
@pytest.mark.parametrize("mode", list(FAULTS))
def test_device_fault_is_reported_sticky_and_reset(built, mode):
    """faults.cu checks the codes itself (cudaErrorIllegalAddress,
    cudaErrorAssert, cudaErrorLaunchTimeout for a kernel stopped by the
    watchdog or sim.max_cycles -- was cudaErrorLaunchFailure), that they are
    sticky and that cudaDeviceReset clears them; here: rfsim's report."""
    patterns, env = FAULTS[mode]
    t0 = time.monotonic()
    p = passed(run(built["faults"], mode, **env))
    assert time.monotonic() - t0 < 60
    for pat in patterns:
        assert re.search(pat, p.stderr), f"{pat!r} not in\n{p.stderr}"
    assert p.stderr.count("<<<") == 2        # the faulty kernel and one after the reset


@needs_nvcc
def test_destroyed_texture_object_in_a_kernel_is_reported(built):
    """textures.cu destroys a texture object, then launches a fetch through it:
    a kernel fault naming the handle, kernel, block, thread and PTX line."""
    p = run(built["textures"], "destroyed")
    assert p.returncode == 1, p.stdout + p.stderr
    assert re.search(r"kernel fault: texture object handle \d+ is not a live texture object"
                     r".*\n  in kernel _Z7fetch1d\w*, block \(0,0,0\), thread \(0,0,0\), "
                     r"textures\.compute_80\.ptx:\d+\n\s+tex\.1d\.v4\.f32\.s32", p.stderr), p.stderr
    assert "cudaErrorIllegalAddress" in p.stderr


@needs_nvcc
def test_a_filtered_fetch_reads_the_lines_of_every_texel_row(built, tmp_path):
    """textures.cu rows: 32 lanes fetch 32 floats of one 256-byte row (one
    128-byte line), then bilinearly between two rows, where the x neighbours
    cross into the next line: 2 rows x 2 lines -- the second row counted
    (StepTrace.xaddr) as well as the first."""
    stats = tmp_path / "rows.json"
    passed(run(built["textures"], "rows", RFSIM_STATS=stats, RFSIM_QUIET=1))
    point, linear = json.loads(stats.read_text())["kernels"]
    assert point["l1_hits"] + point["l1_misses"] == 1, point
    assert linear["l1_hits"] + linear["l1_misses"] == 4, linear


@needs_nvcc
def test_textures_on_the_functional_core(built):
    passed(run(built["textures"], RFSIM_SET="sim.mode=functional", RFSIM_QUIET=1))


@needs_nvcc
def test_texture_fetches_are_timed_loads_plus_tex_lat(built, tmp_path):
    """A fetch goes through L1 as a global load of its texels, and its result
    comes tex.lat cycles after them: each of sample2d's one fetch per thread
    costs 200 more cycles at tex.lat=200 (2% of slack: the later fetches meet
    the memory system's queues at other times), the box filter's nine dependent ones 1800, and
    surface accesses (plain loads and stores) nothing."""
    runs = {}
    for lat in (0, 200):
        stats = tmp_path / f"s{lat}.json"
        passed(run(built["textures"], RFSIM_STATS=stats, RFSIM_QUIET=1,
                   RFSIM_SET=f"tex.lat={lat}"))
        runs[lat] = json.loads(stats.read_text())["kernels"]
    for k0, k1 in zip(runs[0], runs[200]):
        d, name = k1["cycles"] - k0["cycles"], k0["name"]
        if name.startswith("_Z8sample2d"):
            assert 196 <= d <= 204, (name, d)
            assert k0["l1_hits"] + k0["l1_misses"] > 0, k0
        if name.startswith("_Z4box3"):
            assert d == 1800, (name, d)
        if name.startswith("_Z8surfread"):
            assert d == 0 and k0["l1_hits"] + k0["l1_misses"] > 0, (name, d)


@needs_nvcc
def test_stats_span_device_reset_and_units(built, tmp_path):
    stats = tmp_path / "s.json"
    passed(run(built["multitu"], RFSIM_STATS=stats, RFSIM_QUIET=1))
    got = json.loads(stats.read_text())
    names = [k["name"] for k in got["kernels"]]
    assert got["totals"]["kernels"] == 4 and names[0] == names[2] == "_Z10scale_herePfi"
    assert "scale_offset" in names[1] and names[1] == names[3]


# ---- every register-file model on programs it had never seen -----------------

# the models' compiler passes rewrite the kernels (register allocation and
# spilling, RegMutex acquire/release and compaction, LTRF intervals and
# PREFETCH, register-sharing reordering): the results must not change
MODEL_VARIANTS = [("maxwell-ltrf", f"rf.model={m}") for m in models()] + [
    ("fermi-gtx480", "rf.model=regmutex;regmutex.paired=1;maxrregcount=24"),
    ("fermi-gtx480", "rf.model=ltrf;ltrf.partition=strand;ltrf.regs_per_interval=8"),
    ("gebhart-isca11", "rf.model=rfc;sched.policy=twolevel;maxrregcount=16"),
    ("hopper-h100", "rf.model=regshare;sm.count=1;sched.policy=gto"),
    ("hopper-h100", "rf.model=ltrfplus;sm.count=1;maxrregcount=24"),
]


@needs_nvcc
@pytest.mark.parametrize("prog", ["ctrlflow", "fencereduce", "regpressure", "textures",
                                  "coopgrid", "rdc", "dynpar", "barrier", "barrier_G",
                                  "reduce_t", "itslock", "clusters"])
def test_program_passes_under_every_register_file_model(built, prog):
    assert len(models()) >= 8, models()
    # the sanitizer build runs each model once (its memory safety); the normal
    # build also runs the five other configs and parameters (their results)
    if sanitized() and prog == "itslock":
        pytest.skip("itslock's spin locks take minutes under ASan (194 s with each model "
                    "once, 497 s with all 13): the normal build runs it under every model, "
                    "the sanitizer build once (test_program_verifies_itself)")
    variants = MODEL_VARIANTS[:len(models())] if sanitized() else MODEL_VARIANTS
    with ThreadPoolExecutor(max_workers=2) as ex:
        runs = {(c, s): ex.submit(run, built[prog], RFSIM_CONFIG=c, RFSIM_SET=s, RFSIM_QUIET=1)
                for c, s in variants}
    for (c, s), f in runs.items():
        p = f.result()
        assert p.returncode == 0 and "PASS" in p.stdout, \
            f"{prog} on {c} with {s}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"


# ---- relocatable device code (nvcc -rdc=true; src/ptx/link.c) -----------------

RDC_KERNELS = ["rdc_kernel<<<(3,1,1),(128,1,1)>>>", "rdc_count_lib<<<(5,1,1),(64,1,1)>>>",
               "rdc_read<<<(1,1,1),(32,1,1)>>>"]


def rdc_passed(p):
    """rdc_main.cu's run: every unit's kernel ran, each unit's printf string
    (both named $str in their units) printed its own text."""
    passed(p)
    assert "rdc_main: 300 threads count 1" in p.stdout
    assert "rdc_lib: 300 threads count 2" in p.stdout
    for k in RDC_KERNELS:
        assert k in p.stderr, p.stderr
    assert "rfsim:" not in p.stderr.replace("rfsim: rdc_", ""), p.stderr


@needs_nvcc
@pytest.mark.parametrize("name", ["rdc", "rdc_ptx"])
def test_rdc_units_link_into_one_program(built, name, tmp_path):
    rdc_passed(run(built[name], RFSIM_PTX_DIR=tmp_path))
    linked = (tmp_path / f"{name}.linked.compute_80.ptx").read_text()
    # one definition per symbol; libcudadevrt's unit (PTX-only builds) left out
    assert linked.count(".visible .global .align 4 .u32 rdc_counter;") == 1
    assert linked.count(".visible .const .align 4 .b8 rdc_table[64];") == 1
    assert "cuda_device_runtime" not in linked


@needs_nvcc
def test_rdc_separate_compilation_and_device_link(tmp_path):
    """nvcc -dc per unit, nvcc -dlink, then the host link by the C++ compiler
    against rfsim's library: the same program as one nvcc -rdc=true call."""
    objs = []
    for src in RDC_SRC:
        obj = tmp_path / src.replace(".cu", ".o")
        subprocess.run([NVCC, "-dc", "-arch=sm_80", "-O2", "-I", str(SRC), "-o", str(obj),
                        str(SRC / src)], check=True, capture_output=True)
        objs.append(str(obj))
    dlink = tmp_path / "dlink.o"
    subprocess.run([NVCC, "-dlink", "-arch=sm_80", "-o", str(dlink), *objs], check=True,
                   capture_output=True)
    exe = tmp_path / "rdc_dc"
    subprocess.run(["c++", *objs, str(dlink), "-L", str(BUILD), "-l:libcudart.so.13",
                    "-o", str(exe)], check=True)
    rdc_passed(run(exe))


@needs_nvcc
def test_rdc_refusals_say_why(built):
    p = run(built["rdc_sass"])
    assert p.returncode == 1 and "PASS" not in p.stdout
    assert ("relocatable device code, translation unit 1 of 3: this program's GPU code has "
            "no PTX, only machine code for sm_80") in p.stderr
    assert "cudaErrorNoKernelImageForDevice" in p.stderr


@needs_nvcc
def test_dynamic_parallelism(built):
    """Device-side launches (src/func/cdp.c): the child of rdc_dynpar runs after
    its parent and is listed after it; dynpar.cu's quicksort, tail-launch chain,
    pending-launch limit (2048 of 3000 go through, 100 once cudaDeviceSetLimit
    says so) and nesting limit (level 24
    launches no deeper) under both cores (every register-file model: below).  Pins:
    the linker refused __cudaCDP2GetParameterBufferV2 by name."""
    p = passed(run(built["rdc_dynpar"]))
    lines = re.findall(r"^rfsim: (\w+)<<<", p.stderr, re.M)
    assert lines == ["parent", "child"], p.stderr
    for env in [{}, {"RFSIM_SET": "sim.mode=functional"}]:
        p = passed(run(built["dynpar"], RFSIM_QUIET="1", **env))
        assert ("launched 2048 of 3000 (limit 2048)\nlaunched 100 of 3000 (limit 100)\n"
                "depth 24\n") in p.stdout, (env, p.stdout)
