/*
 * rdc.h -- what the three units of the relocatable-device-code program
 * share (rdc_main.cu, rdc_lib.cu, rdc_host.cu; built with nvcc -rdc=true,
 * or -dc and a device link): declarations of device functions and
 * variables defined in another unit, and the host functions each exports.
 */
#ifndef RDC_H
#define RDC_H

#include <cuda_runtime.h>

enum { RDC_TABLE = 16 };
typedef int (*rdc_op_t)(int);

/* rdc_lib.cu's device code */
extern __device__ unsigned int rdc_counter;      /* counted by kernels of two units */
extern __constant__ int rdc_table[RDC_TABLE];    /* written by rdc_host.cu's host code */
extern __device__ rdc_op_t rdc_ops[2];           /* function pointers into rdc_lib.cu */
__device__ int rdc_fib(int n);                   /* recursive */
__device__ int rdc_apply(rdc_op_t op, int x);    /* calls a pointer from another unit */
__device__ int rdc_lib_helper(int x);            /* calls rdc_lib.cu's static helper */

/* an inline template every unit may instantiate: nvcc emits it .weak in each */
template <typename T> __device__ __noinline__ T rdc_twice(T x) { return x + x; }

/* host functions */
void rdc_lib_count(int n);                                   /* rdc_lib.cu */
void rdc_host_set_table(const int *values);                  /* rdc_host.cu */
unsigned rdc_host_counter();                                 /* rdc_host.cu */
void rdc_host_read_table(int *out);                          /* rdc_host.cu: via a kernel */

#endif
