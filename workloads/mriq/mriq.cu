/*
 * mriq.cu -- the Q matrix of non-Cartesian MRI reconstruction (Parboil's
 * MRI-Q, written afresh): for every voxel x,
 *
 *   Q(x) = sum over k-space samples k of |phi(k)|^2 * exp(2*pi*i * k.x)
 *
 * mriq_phimag computes |phi(k)|^2 = phiR^2 + phiI^2 for every sample.
 * mriq_q does the sum, which is the whole cost: numX * numK sine/cosine
 * pairs.  The samples (kx, ky, kz, |phi|^2) are read from constant memory,
 * where every thread of a warp reads the same sample at the same time,
 * which is what the constant cache broadcasts; constant memory is small,
 * so the host copies the samples in chunks of at most MRIQ_CHUNK (with
 * cuModuleGetGlobal + cuMemcpyHtoD, i.e. cudaMemcpyToSymbol) and launches
 * once per chunk, each launch adding its chunk's contribution to Qr, Qi.
 *
 * sincospif(2 t) gives sin and cos of 2*pi*t with the multiplication by
 * pi done inside, after an exact range reduction of t, so it is accurate
 * (1 ulp) for any t without the slow large-argument path of sinf.
 *
 * Each thread owns VPT voxels, blockDim.x apart so that loads and stores
 * stay coalesced, and keeps their coordinates and partial sums in
 * registers through the sample loop (register blocking: every sample read
 * from constant memory serves VPT voxels).  The loop is unrolled by two
 * samples, so 2*VPT sine/cosine evaluations are in flight.
 */

#define MRIQ_CHUNK 1024        /* samples per launch (16 KB of constant memory) */
#define VPT 4                  /* voxels per thread */
#define BLOCK 128

__constant__ float4 mriq_k[MRIQ_CHUNK];   /* kx, ky, kz, |phi|^2 */

extern "C" __global__ void mriq_phimag(const float *__restrict__ phir,
                                       const float *__restrict__ phii,
                                       float *__restrict__ phimag, int numk)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;

	if (k < numk)
		phimag[k] = phir[k] * phir[k] + phii[k] * phii[k];
}

extern "C" __global__ void __launch_bounds__(BLOCK)
mriq_q(int numx, int numk, const float *__restrict__ x, const float *__restrict__ y,
       const float *__restrict__ z, float *__restrict__ qr, float *__restrict__ qi)
{
	int v0 = blockIdx.x * VPT * BLOCK + threadIdx.x;
	float px[VPT], py[VPT], pz[VPT], sr[VPT], si[VPT];

#pragma unroll
	for (int j = 0; j < VPT; j++) {
		int v = min(v0 + j * BLOCK, numx - 1);  /* past the end: redo the last voxel */
		px[j] = x[v];
		py[j] = y[v];
		pz[j] = z[v];
		sr[j] = si[j] = 0.0f;
	}
#pragma unroll 2
	for (int k = 0; k < numk; k++) {
		float4 s = mriq_k[k];
#pragma unroll
		for (int j = 0; j < VPT; j++) {
			float sn, cs;
			sincospif(2.0f * (s.x * px[j] + s.y * py[j] + s.z * pz[j]), &sn, &cs);
			sr[j] += s.w * cs;
			si[j] += s.w * sn;
		}
	}
#pragma unroll
	for (int j = 0; j < VPT; j++) {
		int v = v0 + j * BLOCK;
		if (v < numx) {
			qr[v] += sr[j];
			qi[v] += si[j];
		}
	}
}
