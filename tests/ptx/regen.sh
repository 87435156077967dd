#!/bin/sh
# regen.sh -- regenerate the nvcc-made part of the PTX corpus from the .cu
# sources here (needs nvcc; these were made with CUDA 13.0).  The corpus
# covers several targets, -O3 (default), unoptimised (-Xcicc -O0), -G
# (debug: .loc, DWARF .section blocks, `.target ..., debug`) and
# -lineinfo (.loc with function_name/inlined_at).  The hand-written
# hand_*.ptx files (older nvcc styles, rare directives) are not generated.
set -e
cd "$(dirname "$0")"
gen() {
	src=$1 out=$2
	shift 2
	echo "nvcc -ptx $* $src -> $out"
	nvcc -ptx "$@" -o "$out" "$src"
}
gen basic.cu    basic.sm75.ptx     -arch=sm_75
gen basic.cu    basic.sm90.ptx     -arch=sm_90
gen basic.cu    basic.sm120.ptx    -arch=sm_120
gen basic.cu    basic.O0.ptx       -arch=sm_80 -Xcicc -O0
gen funcs.cu    funcs.sm90.ptx     -arch=sm_90
gen funcs.cu    funcs.G.ptx        -arch=sm_80 -G
gen funcs.cu    funcs.O0.ptx       -arch=sm_80 -Xcicc -O0
gen globals.cu  globals.sm90.ptx   -arch=sm_90
gen globals.cu  globals.sm120.ptx  -arch=sm_120
gen globals.cu  globals.G.ptx      -arch=sm_80 -G
gen atomics.cu  atomics.sm80.ptx   -arch=sm_80
gen atomics.cu  atomics.sm90.ptx   -arch=sm_90
gen warp.cu     warp.sm80.ptx      -arch=sm_80
gen warp.cu     warp.sm120.ptx     -arch=sm_120
gen warp.cu     warp.G.ptx         -arch=sm_80 -G
gen half.cu     half.sm80.ptx      -arch=sm_80
gen half.cu     half.sm90.ptx      -arch=sm_90
gen half.cu     half.O0.ptx        -arch=sm_80 -Xcicc -O0
gen mathlib.cu  mathlib.sm90.ptx   -arch=sm_90
gen mathlib.cu  mathlib.sm120.ptx  -arch=sm_120
gen mathlib.cu  mathlib.G.ptx      -arch=sm_80 -G
gen misc.cu     misc.sm80.ptx      -arch=sm_80
gen misc.cu     misc.sm120.ptx     -arch=sm_120
gen misc.cu     misc.lineinfo.ptx  -arch=sm_90 -lineinfo
gen misc.cu     misc.O0.ptx        -arch=sm_86 -Xcicc -O0
gen gridsync.cu gridsync.sm80.ptx  -arch=sm_80
gen cluster.cu  cluster.sm90.ptx   -arch=sm_90
gen cluster.cu  cluster.sm90a.ptx  -arch=sm_90a
gen cluster.cu  cluster.sm120.ptx  -arch=sm_120
gen rm_two_kernels.cu rm_two_kernels.sm80.ptx -arch=sm_80
gen tensor.cu   tensor.sm80.ptx    -arch=sm_80
gen tensor.cu   tensor.sm90.ptx    -arch=sm_90
gen mma.cu      mma.sm80.ptx       -arch=sm_80
gen mma.cu      mma.sm90.ptx       -arch=sm_90
gen texture.cu texture.sm80.ptx   -arch=sm_80
gen mbarrier.cu mbarrier.sm80.ptx  -arch=sm_80
gen mbarrier.cu mbarrier.sm90.ptx  -arch=sm_90
gen its.cu      its.sm80.ptx       -arch=sm_80 -O2
gen its.cu      its.G.ptx          -arch=sm_80 -G
gen itscall.cu  itscall.sm80.ptx   -arch=sm_80 -O2
gen itscall.cu  itscall.G.ptx      -arch=sm_80 -G
gen bulk.cu     bulk.sm90.ptx      -arch=sm_90
gen shcas.cu    shcas.sm80.ptx     -arch=sm_80
gen gridbar.cu  gridbar.sm80.ptx   -arch=sm_80
