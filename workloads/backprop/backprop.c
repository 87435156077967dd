/*
 * backprop.c -- host side of backprop (see backprop.cu): one training
 * step of an nin-16-1 perceptron with sigmoid units, as in Rodinia's
 * backprop: the GPU runs the input layer's forward pass and the weight
 * adjustment; the host adds up the forward partials, runs the small
 * output layer, and back-propagates the error to the hidden deltas.
 *
 * Sizes: nin = 1,536 (small), 65,536 (default, as Rodinia's), 262,144
 * (large) input units.  Blocks of 16 x 16 threads, 16 input units each:
 * 96, 4,096 and 16,384 blocks per kernel.
 *
 * Tolerances (u = 2^-24; references in double from the same float data):
 *  - partial[b][x]: 16 products, each rounded once, summed by a 4-level
 *    tree: every term passes through at most 5 roundings, so the error is
 *    at most 5u * sum|w*in| to first order (Higham, Accuracy and Stability
 *    of Numerical Algorithms, 2nd ed., section 4.2); checked with 6u.
 *  - dw = eta*delta*in + momentum*oldw: at most three roundings on the
 *    terms (two products, fused or not, and the sum), so |error| <= 3u*M
 *    with M = |eta*delta*in| + |momentum*oldw|; oldw (= dw) is checked
 *    with 4u * M, and w + dw, one more rounding, with 5u * (|w| + M).
 *
 * Input unit 0 is the bias unit (input 1), so w's row 0 holds the hidden
 * units' biases, as in Rodinia.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { HID = 16 };
static const float ETA = 0.3f, MOMENTUM = 0.3f, TARGET = 0.8f;

typedef struct Net {
	int nin, nblk;               /* input units, blocks (nin / 16) */
	float *in, *w, *oldw;        /* nin (in[0] = 1: bias); nin x HID; nin x HID */
	float w2[HID], delta[HID];   /* hidden -> output weights; hidden deltas */
	float *part;                 /* GPU forward partials, nblk x HID */
	double *want, *mag;          /* scratch for references, nin x HID */
} Net;

static double sigmoid(double x)
{
	return 1.0 / (1.0 + exp(-x));
}

static int make_net(Net *n, uint64_t seed)
{
	size_t nw = (size_t)n->nin * HID;
	WlRng rng;

	n->in = malloc((size_t)n->nin * sizeof(float));
	n->w = malloc(nw * sizeof(float));
	n->oldw = malloc(nw * sizeof(float));
	n->part = malloc((size_t)n->nblk * HID * sizeof(float));
	n->want = malloc(nw * sizeof(double));
	n->mag = malloc(nw * sizeof(double));
	if (!n->in || !n->w || !n->oldw || !n->part || !n->want || !n->mag)
		return -1;
	wl_rng_init(&rng, seed, 1);
	n->in[0] = 1.0f;
	for (int i = 1; i < n->nin; i++)
		n->in[i] = wl_rng_f32(&rng, 0.0f, 1.0f);
	for (size_t i = 0; i < nw; i++) {
		n->w[i] = wl_rng_f32(&rng, -0.1f, 0.1f);
		n->oldw[i] = wl_rng_f32(&rng, -0.01f, 0.01f);
	}
	for (int j = 0; j < HID; j++)
		n->w2[j] = wl_rng_f32(&rng, -1.0f, 1.0f);
	return 0;
}

/* check the GPU's partials, then back-propagate from them into n->delta */
static int forward_and_back(Net *n, char *msg, size_t msgn)
{
	double hidden[HID], out = 0;
	int rc;

	for (int b = 0; b < n->nblk; b++)
		for (int x = 0; x < HID; x++) {
			double s = 0, a = 0;
			for (int y = 0; y < HID; y++) {
				int row = b * HID + y;
				double p = (double)n->w[row * HID + x] * n->in[row];
				s += p;
				a += fabs(p);
			}
			n->want[b * HID + x] = s;
			n->mag[b * HID + x] = a;
		}
	rc = wl_check_f32("partial", n->part, n->want, n->mag, (size_t)n->nblk * HID, HID, 0.0,
	                  6 * WL_ULP_F32, msg, msgn);
	if (rc)
		return rc;
	for (int x = 0; x < HID; x++) {
		double s = 0;
		for (int b = 0; b < n->nblk; b++)
			s += n->part[b * HID + x];
		hidden[x] = sigmoid(s);
		out += n->w2[x] * hidden[x];
	}
	out = sigmoid(out);
	double dout = out * (1 - out) * (TARGET - out);
	for (int x = 0; x < HID; x++)
		n->delta[x] = (float)(hidden[x] * (1 - hidden[x]) * n->w2[x] * dout);
	return 0;
}

/* bp_adjust's results w and oldw against the reference from the inputs in n */
static int check_adjust(Net *n, const float *w, const float *oldw, char *msg, size_t msgn)
{
	size_t nw = (size_t)n->nin * HID;
	int rc;

	for (size_t i = 0; i < nw; i++) {
		double t = (double)ETA * n->delta[i % HID] * n->in[i / HID];
		double m = (double)MOMENTUM * n->oldw[i];
		n->want[i] = t + m;
		n->mag[i] = fabs(t) + fabs(m);
	}
	rc = wl_check_f32("oldw", oldw, n->want, n->mag, nw, HID, 0.0, 4 * WL_ULP_F32, msg, msgn);
	if (rc)
		return rc;
	for (size_t i = 0; i < nw; i++) {
		n->want[i] += n->w[i];
		n->mag[i] += fabs(n->w[i]);
	}
	return wl_check_f32("w", w, n->want, n->mag, nw, HID, 0.0, 5 * WL_ULP_F32, msg, msgn);
}

typedef struct Dev {
	CUdeviceptr in, w, oldw, part, delta;
} Dev;

static int upload(const Net *n, Dev *d, char *msg, size_t msgn)
{
	size_t nw = (size_t)n->nin * HID * sizeof(float);
	int rc = 0;

	CHECK_CU(cuMemAlloc(&d->in, (size_t)n->nin * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d->w, nw));
	CHECK_CU(cuMemAlloc(&d->oldw, nw));
	CHECK_CU(cuMemAlloc(&d->part, (size_t)n->nblk * HID * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d->delta, HID * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d->in, n->in, (size_t)n->nin * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d->w, n->w, nw));
	CHECK_CU(cuMemcpyHtoD(d->oldw, n->oldw, nw));
out:
	return rc;
}

int wl_backprop_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 1536, 65536, 262144 };
	Net n = { .nin = sizes[args->size], .nblk = sizes[args->size] / HID };
	size_t nw = (size_t)n.nin * HID;
	float *w = malloc(nw * sizeof(float)), *oldw = malloc(nw * sizeof(float));
	float eta = ETA, momentum = MOMENTUM;
	WlGpu g = { 0 };
	Dev d = { 0 };
	CUfunction ffwd, fadj;
	int rc;

	if (!w || !oldw || make_net(&n, args->seed)) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	if ((rc = wl_open(&g, args->ptx, msg, msgn)) || (rc = upload(&n, &d, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&ffwd, g.mod, "bp_forward"));
	CHECK_CU(cuModuleGetFunction(&fadj, g.mod, "bp_adjust"));
	void *pf[] = { &d.in, &d.w, &d.part };
	CHECK_CU(cuLaunchKernel(ffwd, (unsigned)n.nblk, 1, 1, HID, HID, 1, 0, NULL, pf, NULL));
	CHECK_CU(cuMemcpyDtoH(n.part, d.part, (size_t)n.nblk * HID * sizeof(float)));
	if ((rc = forward_and_back(&n, msg, msgn)))
		goto out;

	CHECK_CU(cuMemcpyHtoD(d.delta, n.delta, sizeof n.delta));
	void *pa[] = { &eta, &momentum, &d.delta, &d.in, &d.w, &d.oldw };
	CHECK_CU(cuLaunchKernel(fadj, (unsigned)n.nblk, 1, 1, HID, HID, 1, 0, NULL, pa, NULL));
	CHECK_CU(cuMemcpyDtoH(w, d.w, nw * sizeof(float)));
	CHECK_CU(cuMemcpyDtoH(oldw, d.oldw, nw * sizeof(float)));
	if ((rc = check_adjust(&n, w, oldw, msg, msgn)))
		goto out;
	snprintf(msg, msgn, "%d-%d-1 network, %d blocks of %dx%d per kernel", n.nin, HID, n.nblk,
	         HID, HID);
out:
	wl_free(&d.in);
	wl_free(&d.w);
	wl_free(&d.oldw);
	wl_free(&d.part);
	wl_free(&d.delta);
	wl_close(&g);
	free(w);
	free(oldw);
	free(n.in);
	free(n.w);
	free(n.oldw);
	free(n.part);
	free(n.want);
	free(n.mag);
	return rc;
}
