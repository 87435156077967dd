/*
 * sort.cu -- least-significant-digit radix sort of (key, value) pairs,
 * 32-bit keys, 4 bits per pass, 8 passes of three kernels.  Each block
 * owns a tile of ITEMS * 128 consecutive elements.
 *
 *   radix_hist     per block, the count of each of the 16 digits in its
 *                  tile, kept in shared memory with shared atomics, then
 *                  stored digit-major: hist[digit * nblocks + block];
 *   radix_scan     one block: the exclusive prefix sum of hist in place,
 *                  so hist[d * nblocks + b] becomes where block b's
 *                  elements with digit d start in the output.  Each
 *                  thread sums a contiguous run, the run totals are
 *                  scanned with __shfl_up_sync within each warp and again
 *                  across the warp totals, then each run is rewritten;
 *   radix_scatter  per block, the same tile in ITEMS rounds of 128: each
 *                  element's rank among the equal digits before it in its
 *                  warp comes from four __ballot_sync votes (one per digit
 *                  bit, intersected to the lanes sharing its digit) and a
 *                  population count of those below its lane (%lanemask_lt,
 *                  read with inline PTX); per-warp digit counts
 *                  meet in shared memory, where 16 threads scan them across
 *                  the warps; each element then goes to start + the count
 *                  of its digit in earlier rounds, warps and lanes.
 *
 * Elements keep their input order within a digit (the ranks follow lane,
 * warp, round and block order), so each pass is stable and 8 passes sort
 * by the whole key, equal keys in input order.  The barriers of the
 * scatter sit inside its round loop.  The histogram and scatter blocks
 * must be 128 threads (4 warps): small blocks leave occupancy to the
 * thread and block-slot limits at the ~24 registers the scatter needs.
 * The scan takes any multiple of 32 threads up to 1,024.
 */

#define RADIX 16
#define NWARPS 4   /* blockDim.x == 128 for the hist and scatter kernels */
#define ITEMS 8    /* elements per thread per tile */

extern "C" __global__ void radix_hist(int n, int shift, const uint2 *__restrict__ pairs,
                                      unsigned *__restrict__ hist)
{
	__shared__ unsigned s_hist[RADIX];
	int base = blockIdx.x * ITEMS * blockDim.x;

	if (threadIdx.x < RADIX)
		s_hist[threadIdx.x] = 0;
	__syncthreads();
	for (int r = 0; r < ITEMS; r++) {
		int i = base + r * blockDim.x + threadIdx.x;
		if (i < n)
			atomicAdd(&s_hist[(pairs[i].x >> shift) % RADIX], 1u);
	}
	__syncthreads();
	if (threadIdx.x < RADIX)
		hist[threadIdx.x * gridDim.x + blockIdx.x] = s_hist[threadIdx.x];
}

/* exclusive prefix sum of v over the block (blockDim.x a multiple of 32, <= 1024) */
__device__ unsigned block_exclusive_scan(unsigned v)
{
	__shared__ unsigned s_warp[32];
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
	unsigned x = v;

	for (int off = 1; off < 32; off *= 2) {
		unsigned y = __shfl_up_sync(0xffffffffu, x, off);
		if (lane >= off)
			x += y;
	}
	if (lane == 31)
		s_warp[warp] = x;
	__syncthreads();
	if (warp == 0) {
		unsigned w = lane < nwarps ? s_warp[lane] : 0;
		for (int off = 1; off < 32; off *= 2) {
			unsigned y = __shfl_up_sync(0xffffffffu, w, off);
			if (lane >= off)
				w += y;
		}
		s_warp[lane] = w;  /* inclusive totals of warps 0..lane */
	}
	__syncthreads();
	return x - v + (warp ? s_warp[warp - 1] : 0);
}

/* data[0..len) = its exclusive prefix sum; one block */
extern "C" __global__ void radix_scan(int len, unsigned *__restrict__ data)
{
	int per = (len + blockDim.x - 1) / blockDim.x;
	int begin = min((int)threadIdx.x * per, len), end = min(begin + per, len);
	unsigned run = 0;

#pragma unroll 1
	for (int i = begin; i < end; i++)
		run += data[i];
	unsigned start = block_exclusive_scan(run);
#pragma unroll 1
	for (int i = begin; i < end; i++) {
		unsigned v = data[i];
		data[i] = start;
		start += v;
	}
}

/* the scatter's shared counters, one object so that one base register reaches them all */
struct Tally {
	unsigned base[RADIX];          /* next free slot per digit */
	unsigned count[NWARPS][RADIX]; /* this round: per warp, then their prefix */
	unsigned total[RADIX];         /* this round's count per digit */
};

extern "C" __global__ void radix_scatter(int n, int shift, const unsigned *__restrict__ start,
                                         const uint2 *__restrict__ pairs,
                                         uint2 *__restrict__ out)
{
	__shared__ Tally s;
	int tid = threadIdx.x, warp = tid / 32;
	int base = blockIdx.x * ITEMS * blockDim.x;

	if (tid < RADIX)
		s.base[tid] = start[tid * gridDim.x + blockIdx.x];
#pragma unroll 1
	for (int r = 0; r < ITEMS; r++, base += blockDim.x) {
		int i = base + tid;
		bool valid = i < n;
		uint2 kv = valid ? pairs[i] : make_uint2(0, 0);
		unsigned digit = (kv.x >> shift) % RADIX;
		unsigned peers = __ballot_sync(0xffffffffu, valid);
		for (int b = 0; b < 4; b++) {
			unsigned bit = (digit >> b) & 1, votes = __ballot_sync(0xffffffffu, bit);
			peers &= bit ? votes : ~votes;
		}
		unsigned below;  /* the lanes before this one */
		asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
		unsigned rank = __popc(peers & below);
		if (tid < NWARPS * RADIX)
			(&s.count[0][0])[tid] = 0;
		__syncthreads();
		if (valid && rank == 0)  /* the first lane of each digit group speaks for it */
			s.count[warp][digit] = __popc(peers);
		__syncthreads();
		if (tid < RADIX) {
			unsigned sum = 0;
#pragma unroll 1
			for (int w = 0; w < NWARPS; w++) {
				unsigned c = s.count[w][tid];
				s.count[w][tid] = sum;
				sum += c;
			}
			s.total[tid] = sum;
		}
		__syncthreads();
		if (valid)
			out[s.base[digit] + s.count[warp][digit] + rank] = kv;
		__syncthreads();
		if (tid < RADIX)
			s.base[tid] += s.total[tid];
	}
}
