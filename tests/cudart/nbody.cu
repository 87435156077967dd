/*
 * nbody.cu -- the CUDA samples' n-body force kernel: bodies as float4
 * (position, mass), tiles of blockDim bodies staged in shared memory,
 * rsqrtf for 1/r^3 with a softening term, `#pragma unroll 4` over the
 * tile, a leapfrog integration step, and __launch_bounds__(256, 2)
 * (maxrregcount pressure on the register allocator).  Checked against a
 * double-precision CPU reference within a relative tolerance justified by
 * rsqrtf's 2 ulp and float accumulation over N terms.
 */
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "check.h"

__device__ float3 interact(float4 bi, float4 bj, float3 ai, float soft2)
{
	float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
	float d2 = r.x * r.x + r.y * r.y + r.z * r.z + soft2;
	float inv = rsqrtf(d2);
	float s = bj.w * inv * inv * inv;
	ai.x += r.x * s;
	ai.y += r.y * s;
	ai.z += r.z * s;
	return ai;
}

__global__ void __launch_bounds__(256, 2)
forces(const float4 *pos, float4 *vel, float4 *npos, int n, float dt, float soft2)
{
	extern __shared__ float4 tile[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
	float3 acc = make_float3(0, 0, 0);
	for (int base = 0; base < n; base += blockDim.x) {
		int j = base + threadIdx.x;
		tile[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
		__syncthreads();
#pragma unroll 4
		for (int k = 0; k < blockDim.x; k++) acc = interact(me, tile[k], acc, soft2);
		__syncthreads();
	}
	if (i >= n) return;
	float4 v = vel[i];
	v.x += acc.x * dt, v.y += acc.y * dt, v.z += acc.z * dt;
	vel[i] = v;
	npos[i] = make_float4(me.x + v.x * dt, me.y + v.y * dt, me.z + v.z * dt, me.w);
}

int main()
{
	const int n = 1000, threads = 128, steps = 2;
	const float dt = 0.01f, soft2 = 0.01f;
	std::vector<float4> p(n), v(n);
	for (int i = 0; i < n; i++) {
		float a = i * 0.618f, r = 1 + (i % 17) * 0.1f;
		p[i] = make_float4(r * std::cos(a), r * std::sin(a), (i % 7) * 0.05f - 0.15f,
		                   0.5f + (i % 5) * 0.1f);
		v[i] = make_float4(-std::sin(a) * 0.1f, std::cos(a) * 0.1f, 0, 0);
	}
	float4 *dp[2], *dv;
	for (auto &b : dp) CHECK(cudaMalloc(&b, n * sizeof(float4)));
	CHECK(cudaMalloc(&dv, n * sizeof(float4)));
	CHECK(cudaMemcpy(dp[0], p.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dv, v.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, forces));
	EXPECT(fa.numRegs <= 128, "__launch_bounds__(256, 2) allows 128 registers, got %d",
	       fa.numRegs);
	for (int s = 0; s < steps; s++) {
		forces<<<(n + threads - 1) / threads, threads, threads * sizeof(float4)>>>(
			dp[s % 2], dv, dp[(s + 1) % 2], n, dt, soft2);
		CHECK(cudaGetLastError());
	}
	std::vector<float4> gp(n), gv(n);
	CHECK(cudaMemcpy(gp.data(), dp[steps % 2], n * sizeof(float4), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(gv.data(), dv, n * sizeof(float4), cudaMemcpyDeviceToHost));
	/* CPU: the same steps in double */
	std::vector<double> P(4 * n), V(4 * n);
	for (int i = 0; i < n; i++) {
		P[4 * i] = p[i].x, P[4 * i + 1] = p[i].y, P[4 * i + 2] = p[i].z, P[4 * i + 3] = p[i].w;
		V[4 * i] = v[i].x, V[4 * i + 1] = v[i].y, V[4 * i + 2] = v[i].z;
	}
	double maxacc = 0;
	for (int s = 0; s < steps; s++) {
		std::vector<double> Q = P;
		for (int i = 0; i < n; i++) {
			double a[3] = {0, 0, 0};
			for (int j = 0; j < n; j++) {
				double r[3] = {P[4 * j] - P[4 * i], P[4 * j + 1] - P[4 * i + 1],
				               P[4 * j + 2] - P[4 * i + 2]};
				double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + soft2;
				double sc = P[4 * j + 3] / (d2 * std::sqrt(d2));
				for (int k = 0; k < 3; k++) a[k] += r[k] * sc;
			}
			for (int k = 0; k < 3; k++) {
				V[4 * i + k] += a[k] * dt;
				Q[4 * i + k] = P[4 * i + k] + V[4 * i + k] * dt;
				maxacc = std::fmax(maxacc, std::fabs(a[k]));
			}
		}
		P = Q;
	}
	/* velocity error: dt * (N terms each within ~4 ulp of float) relative to the
	 * largest acceleration; 1e-3 of it is ample */
	double tolv = 1e-3 * maxacc * dt * steps, tolp = tolv * dt * steps + 1e-6;
	for (int i = 0; i < n; i++) {
		double ev = std::fabs(gv[i].x - V[4 * i]) + std::fabs(gv[i].y - V[4 * i + 1]) +
		            std::fabs(gv[i].z - V[4 * i + 2]);
		double ep = std::fabs(gp[i].x - P[4 * i]) + std::fabs(gp[i].y - P[4 * i + 1]) +
		            std::fabs(gp[i].z - P[4 * i + 2]);
		EXPECT(ev < tolv && ep < tolp, "body %d: velocity error %g (tol %g), position %g "
		       "(tol %g)", i, ev, tolv, ep, tolp);
	}
	std::printf("PASS\n");
	return 0;
}
