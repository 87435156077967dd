/*
 * shcas.cu -- PTX corpus: a shared-memory histogram whose loop also adds
 * into one global word with an atomicCAS retry loop (issue 20, defect 1).
 * The lanes of a warp contend for the CAS, so on LRR the retry path spins
 * long enough for simt_release to let the lanes that finished go on; they
 * reach the second __syncthreads() while their warp's other lanes still
 * loop, and the barrier must wait for those.  It did not once simt_yield
 * had reordered the waiting paths: the bins summed to 2505 of 3000 in
 * timing mode.  tests/test_its.py runs it.
 */
extern "C" __global__ void sh_cas(const unsigned *in, unsigned n, unsigned *bins, unsigned *acc)
{
	__shared__ unsigned sh[64];
	for (unsigned i = threadIdx.x; i < 64; i += blockDim.x) sh[i] = 0;
	__syncthreads();
	for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		unsigned v = in[i];
		atomicAdd(&sh[v & 63], 1u);
		unsigned old = acc[0], assumed;
		do {
			assumed = old;
			old = atomicCAS(&acc[0], assumed, assumed + v);
		} while (old != assumed);
	}
	__syncthreads();
	for (unsigned i = threadIdx.x; i < 64; i += blockDim.x) atomicAdd(&bins[i], sh[i]);
}
