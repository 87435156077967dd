/*
 * sad.cu -- block-matching motion estimation: sums of absolute
 * differences between each 16x16 macroblock of the current frame and
 * every candidate position of a search window in the reference frame
 * (the task of Parboil's SAD, from H.264 encoding; written afresh).
 *
 * Candidates are the displacements dx, dy in [-8, 7] (256 per
 * macroblock); reference pixels outside the frame repeat its edge (as
 * H.264's unrestricted motion vectors do).  For each candidate, the SADs
 * of the macroblock's four 8x8 quadrants are produced, from which the
 * 16x16 SAD is their sum (variable block-size matching).
 *
 * sad_search: a block of 128 threads handles two horizontally adjacent
 * macroblocks.  It stages the two current macroblocks and the reference
 * window they search (47 x 31 pixels, edge-clamped, fetched byte by
 * byte) in shared memory, then each thread takes one dy and four
 * consecutive dx of one macroblock.  Walking the 16 rows, it reads the
 * row of the current block (4 words) and the 19 reference bytes its four
 * candidates cover (5 aligned words), unpacks bytes with bit-field
 * extracts and accumulates |a - b| with __usad (PTX sad) into 16
 * quadrant accumulators (4 candidates x 2 columns halves x 2 row halves),
 * while the unpacked bytes stay live: the register-heavy inner loop.
 *
 * sad_best: one block per macroblock, a thread per candidate, reduces
 * the five SADs (16x16 and the four 8x8) to their minima with shared
 * memory atomicMin on keys (sad << 8 | candidate), so ties go to the
 * first candidate in raster order.
 */

#define MB 16                   /* macroblock edge */
#define R 8                     /* search range: dx, dy in [-R, R) */
#define NPOS (4 * R * R)        /* candidates: 256 */
#define WIN_W 48                /* window row: 2*MB + 2*R - 1 = 47, padded */
#define WIN_H (MB + 2 * R - 1)  /* 31 */
#define BLOCK 128

__device__ __forceinline__ unsigned byte_of(unsigned w, int i)
{
	return (w >> (8 * i)) & 0xffu;
}

/* sad[(mb * NPOS + pos) * 4 + q]: quadrant q (raster order) of candidate
 * pos = (dy + R) * 2R + (dx + R) of macroblock mb (raster order) */
extern "C" __global__ void __launch_bounds__(BLOCK)
sad_search(const unsigned char *__restrict__ cur, const unsigned char *__restrict__ ref,
           int w, int h, unsigned *__restrict__ sad)
{
	__shared__ __align__(16) unsigned char win[WIN_H * WIN_W];
	__shared__ __align__(16) unsigned char blk[2][MB * MB];
	int t = threadIdx.x, mbw = w / MB;
	int x0 = blockIdx.x * 2 * MB, y0 = blockIdx.y * MB;

	for (int i = t; i < WIN_H * WIN_W; i += BLOCK) {
		int x = min(max(x0 - R + i % WIN_W, 0), w - 1);
		int y = min(max(y0 - R + i / WIN_W, 0), h - 1);
		win[i] = ref[y * w + x];
	}
	for (int i = t; i < 2 * MB * MB; i += BLOCK) {
		int x = min(x0 + i % (2 * MB), w - 1), y = y0 + i / (2 * MB);
		blk[i % (2 * MB) / MB][i / (2 * MB) * MB + i % MB] = cur[y * w + x];
	}
	__syncthreads();

	int m = t / (NPOS / 4), pos = t % (NPOS / 4);
	int dy = pos / 4, dx0 = pos % 4 * 4;    /* window offsets: dy + R, dx + R */
	if (blockIdx.x * 2 + m >= mbw)
		return;
	unsigned acc[2][4][2];                  /* [row half][candidate][column half] */
#pragma unroll
	for (int hh = 0; hh < 2; hh++) {
#pragma unroll
		for (int k = 0; k < 4; k++)
			acc[hh][k][0] = acc[hh][k][1] = 0;
#pragma unroll 1
		for (int r = hh * 8; r < hh * 8 + 8; r++) {
			const unsigned *c4 = reinterpret_cast<const unsigned *>(&blk[m][r * MB]);
			const unsigned *r4 = reinterpret_cast<const unsigned *>(
				&win[(dy + r) * WIN_W + m * MB + dx0]);
			unsigned cw[4], rw[5], cb[16], rb[19];
#pragma unroll
			for (int j = 0; j < 4; j++)
				cw[j] = c4[j];
#pragma unroll
			for (int j = 0; j < 5; j++)
				rw[j] = r4[j];
#pragma unroll
			for (int i = 0; i < 16; i++)
				cb[i] = byte_of(cw[i / 4], i % 4);
#pragma unroll
			for (int i = 0; i < 19; i++)
				rb[i] = byte_of(rw[i / 4], i % 4);
#pragma unroll
			for (int k = 0; k < 4; k++)
#pragma unroll
				for (int i = 0; i < 16; i++)
					acc[hh][k][i / 8] = __usad(cb[i], rb[i + k], acc[hh][k][i / 8]);
		}
	}
	int mbi = (blockIdx.y * mbw + blockIdx.x * 2 + m) * NPOS;
#pragma unroll
	for (int k = 0; k < 4; k++) {
		uint4 q = make_uint4(acc[0][k][0], acc[0][k][1], acc[1][k][0], acc[1][k][1]);
		*reinterpret_cast<uint4 *>(&sad[(mbi + dy * 2 * R + dx0 + k) * 4]) = q;
	}
}

/* best[mb * 5 + b] = min over candidates of (SAD << 8 | pos): b = 0 the
 * 16x16 block, b = 1..4 its quadrants */
extern "C" __global__ void __launch_bounds__(NPOS)
sad_best(const unsigned *__restrict__ sad, unsigned *__restrict__ best)
{
	__shared__ unsigned key[5];
	int pos = threadIdx.x, mb = blockIdx.x;

	if (pos < 5)
		key[pos] = 0xffffffffu;
	__syncthreads();
	uint4 q = *reinterpret_cast<const uint4 *>(&sad[((size_t)mb * NPOS + pos) * 4]);
	atomicMin(&key[0], (q.x + q.y + q.z + q.w) << 8 | pos);
	atomicMin(&key[1], q.x << 8 | pos);
	atomicMin(&key[2], q.y << 8 | pos);
	atomicMin(&key[3], q.z << 8 | pos);
	atomicMin(&key[4], q.w << 8 | pos);
	__syncthreads();
	if (pos < 5)
		best[mb * 5 + pos] = key[pos];
}
