/*
 * lib.cu -- Monte Carlo pricing of a swaption portfolio under the LIBOR
 * market model (the algorithm of Giles' LIBOR benchmark, ISPASS 2009
 * "LIB", written afresh).
 *
 * One thread simulates one path.  The state is the NN forward rates
 * L[0..NN), kept in registers for the whole path: every loop over them is
 * unrolled, so each L[i] is a named register, never local memory.  Time
 * steps n = 0..nmat-1 run in a real loop; in step n the rates that have
 * not fixed yet (i > n) move by a log-normal factor driven by one
 * Gaussian z[n] shared by all rates (one factor) and the volatility
 * lambda[i-n-1]:
 *
 *   v    += delta*lam * L[i] / (1 + delta*L[i])      (drift, rate by rate)
 *   L[i] *= exp(delta*lam * v + lam * (sqrt(delta)*z - delta*lam/2))
 *
 * which is a data-dependent-length inner loop written as NN predicated
 * steps.  Then the portfolio: for each maturity m >= nmat, discount
 * factors B = prod 1/(1 + delta*L) and annuities S = sum delta*B give the
 * value of a payer swaption 100*max(0, 1 - B - swaprate[m]*S), and the
 * total is discounted back to time 0 through the fixed rates.
 *
 * Volatilities and swap rates live in constant memory (the host sets
 * them with cuModuleGetGlobal + cuMemcpyHtoD); the Gaussians come from
 * global memory as z[n * npath + path], so a warp's loads coalesce.
 * The NN rates plus the drift, the step constants and the portfolio
 * accumulators are what make the thread's register footprint large.
 */

#define NN 24              /* forward rates per path */
#define BLOCK 128

__constant__ float lib_lambda[NN];     /* volatility by time to fixing */
__constant__ float lib_swaprate[NN];   /* strike of the swaption maturing at m */

extern "C" __global__ void __launch_bounds__(BLOCK)
lib_paths(int npath, int nmat, float delta, float l0, const float *__restrict__ z,
          float *__restrict__ value)
{
	int path = blockIdx.x * BLOCK + threadIdx.x;
	float L[NN];

	if (path >= npath)
		return;
#pragma unroll
	for (int i = 0; i < NN; i++)
		L[i] = l0;

	float sqd = sqrtf(delta);
#pragma unroll 1
	for (int n = 0; n < nmat; n++) {
		float sqez = sqd * z[n * npath + path];
		float v = 0.0f;
#pragma unroll
		for (int i = 1; i < NN; i++) {
			if (i > n) {
				float lam = lib_lambda[i - n - 1];
				float con1 = delta * lam;
				v += con1 * L[i] / (1.0f + delta * L[i]);
				L[i] *= expf(con1 * v + lam * (sqez - 0.5f * con1));
			}
		}
	}

	/* swaptions maturing at m = nmat..NN-1 */
	float b = 1.0f, s = 0.0f, total = 0.0f;
#pragma unroll
	for (int m = 0; m < NN; m++) {
		if (m >= nmat) {
			b = b / (1.0f + delta * L[m]);
			s = s + delta * b;
			total += 100.0f * fmaxf(0.0f, 1.0f - b - lib_swaprate[m] * s);
		}
	}
	/* discount to time 0 through the rates fixed along the path */
#pragma unroll
	for (int m = 0; m < NN; m++)
		if (m < nmat)
			total = total / (1.0f + delta * L[m]);
	value[path] = total;
}
