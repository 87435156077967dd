/*
 * backprop.cu -- the two GPU steps of one training step of a two-layer
 * perceptron (Rodinia's backprop, written afresh): the input layer's
 * forward pass, and the adjustment of its weights after the host has
 * back-propagated the error.
 *
 * The input layer has nin units, the hidden layer HID = 16; w is nin x HID,
 * row-major.  Blocks are 16 x 16 threads and each block owns 16 input
 * units (its rows of w): thread (x, y) handles input unit 16*b + y and
 * hidden unit x.
 *
 * bp_forward: column x of the block's rows is multiplied by the inputs,
 * then summed over y by a tree in shared memory (16 -> 8 -> 4 -> 2 -> 1,
 * a barrier per level, so bar.sync sits in a loop) and written as one
 * partial sum per block and hidden unit; the host adds the partials of all
 * blocks and applies the sigmoid.  One thread per row loads the input unit
 * into shared memory (a divergent branch).
 *
 * bp_adjust: the momentum update of every weight,
 *     dw = eta * delta[x] * in[y] + momentum * oldw;  w += dw;  oldw = dw.
 *
 * As in Rodinia, input unit 0 is the bias unit (its input is 1), so row 0
 * of w holds the hidden units' bias weights and needs no special case.
 */

#define HID 16

/* partial[b][x] = sum over the block's 16 rows y of w[16b + y][x] * in[16b + y] */
extern "C" __global__ void bp_forward(const float *__restrict__ in, const float *__restrict__ w,
                                      float *__restrict__ partial)
{
	__shared__ float s_in[HID];
	__shared__ float s_prod[HID][HID];
	int x = threadIdx.x, y = threadIdx.y, row = blockIdx.x * HID + y;

	if (x == 0)
		s_in[y] = in[row];
	__syncthreads();
	s_prod[y][x] = w[row * HID + x] * s_in[y];
	__syncthreads();
#pragma unroll 1  /* a real loop, as in Rodinia (nvcc would unroll its 4 trips) */
	for (int half = HID / 2; half > 0; half /= 2) {
		if (y < half)
			s_prod[y][x] += s_prod[y + half][x];
		__syncthreads();
	}
	if (y == 0)
		partial[blockIdx.x * HID + x] = s_prod[0][x];
}

/* momentum update of w (nin x HID) */
extern "C" __global__ void bp_adjust(float eta, float momentum, const float *__restrict__ delta,
                                     const float *__restrict__ in, float *__restrict__ w,
                                     float *__restrict__ oldw)
{
	int x = threadIdx.x, y = threadIdx.y, row = blockIdx.x * HID + y, i = row * HID + x;
	float dw = eta * delta[x] * in[row] + momentum * oldw[i];

	w[i] += dw;
	oldw[i] = dw;
}
