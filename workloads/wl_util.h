/*
 * wl_util.h -- what every workload's host code needs besides the driver
 * API: deterministic inputs, CUDA error reporting, context set-up and
 * tear-down, and checking results against a CPU reference.
 *
 * Inputs come from splitmix64 (Steele, Lea, Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): one 64-bit state, a
 * fixed increment and a mixing function, so a (seed, stream) pair names
 * an input array on every host and compiler.
 *
 * CUDA errors: host code wraps each driver call in CHECK_CU, which on
 * failure writes "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (...) [file:line]"
 * into msg, sets rc = 2 and jumps to `out`.  So a run function declares
 * `int rc` and has an `out:` label that releases everything allocated so
 * far; handles start zeroed so the clean-up can tell what exists.
 *
 * Float checks compare the GPU's float results with a reference computed
 * in double, which is the exact answer up to a negligible error.  The
 * tolerance of each element is an error bound for the GPU's computation:
 * atol + rtol * mag[i], where mag[i] is the sum of the magnitudes of the
 * terms that produced element i and rtol counts roundings times
 * WL_ULP_F32.  Each workload states its bound where it calls the check.
 */
#ifndef RFSIM_WL_UTIL_H
#define RFSIM_WL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

/* unit roundoff of IEEE binary32 (round to nearest): 2^-24 */
#define WL_ULP_F32 (1.0 / 16777216.0)
/* unit roundoff of IEEE binary64: 2^-53 */
#define WL_ULP_F64 (1.0 / 9007199254740992.0)

typedef struct WlRng {
	uint64_t s;  /* splitmix64 state */
} WlRng;

void wl_rng_init(WlRng *r, uint64_t seed, uint64_t stream);
uint64_t wl_rng_u64(WlRng *r);
uint32_t wl_rng_u32(WlRng *r);
uint32_t wl_rng_below(WlRng *r, uint32_t n);      /* uniform in [0, n), n > 0 */
float wl_rng_f32(WlRng *r, float lo, float hi);   /* uniform, multiples of (hi-lo)/2^24 */
/* n x n row-major matrix, off-diagonal uniform in [-1, 1), each diagonal entry
 * 1 + the sum of its row's |off-diagonal| entries: strictly diagonally
 * dominant, so LU without pivoting is stable (element growth at most 2) */
void wl_dominant_matrix(float *a, int n, WlRng *rng);

/* blocks of `per` needed to cover n (grid sizes) */
static inline unsigned wl_cdiv(size_t n, size_t per)
{
	return (unsigned)((n + per - 1) / per);
}

/* ---- driver calls ---- */

void wl_cu_fail(char *msg, size_t msgn, const char *call, CUresult r,
                const char *file, int line);

#define CHECK_CU(call) do { \
	CUresult cr_ = (call); \
	if (cr_ != CUDA_SUCCESS) { \
		wl_cu_fail(msg, msgn, #call, cr_, __FILE__, __LINE__); \
		rc = 2; \
		goto out; \
	} } while (0)

/* host allocation failed: say so in msg; returns 2 for `rc = wl_oom(...)` */
int wl_oom(char *msg, size_t msgn);

typedef struct WlGpu {
	CUdevice dev;   /* device 0 */
	CUcontext ctx;  /* NULL until created */
	CUmodule mod;   /* NULL until loaded */
} WlGpu;

/* cuInit, device 0, a fresh context, the module from ptx: 0, or 2 with msg */
int wl_open(WlGpu *g, const char *ptx, char *msg, size_t msgn);
/* unload the module and destroy the context, whatever exists; errors ignored */
void wl_close(WlGpu *g);
/* cuMemFree(*d) if *d is non-zero, then *d = 0; errors ignored */
void wl_free(CUdeviceptr *d);

/* ---- checking ---- */

/* element i passes when |got[i]-want[i]| <= atol + rtol*(mag ? mag[i] : |want[i]|);
 * NaN never passes.  0, or 1 with the first failure and the count in msg.
 * cols > 0 names elements as a row-major matrix, what[row][col] */
int wl_check_f32(const char *what, const float *got, const double *want,
                 const double *mag, size_t n, size_t cols, double atol, double rtol,
                 char *msg, size_t msgn);
/* the same for double results; the reference must then be exact to well
 * below the tolerance (a long double or compensated sum where it matters) */
int wl_check_f64(const char *what, const double *got, const double *want,
                 const double *mag, size_t n, size_t cols, double atol, double rtol,
                 char *msg, size_t msgn);
/* exact comparisons; 0, or 1 with the first difference and the count in msg */
int wl_check_u32(const char *what, const uint32_t *got, const uint32_t *want,
                 size_t n, char *msg, size_t msgn);
int wl_check_i32(const char *what, const int32_t *got, const int32_t *want,
                 size_t n, char *msg, size_t msgn);

/* LU factors (no pivoting) against the matrix they factor.  a and lu are n
 * rows of `cols` >= n floats; lu holds U on and above the diagonal and L's
 * multipliers below it (L's diagonal is 1); columns past n are right-hand
 * sides, carried along as columns of U.  The residual A - L*U, in double,
 * must satisfy |r_ij| <= rtol * (|L||U|)_ij: Higham's backward error bound
 * for LU (Accuracy and Stability of Numerical Algorithms, 2nd ed., Theorem
 * 9.3), which holds with rtol = gamma_n = n*u/(1 - n*u) whatever the order
 * of each inner product.  0, 1 with the first failure and the count in msg,
 * or 2 if host memory runs out */
int wl_check_lu(const char *what, const float *a, const float *lu, int n, int cols,
                double rtol, char *msg, size_t msgn);

#endif /* RFSIM_WL_UTIL_H */
