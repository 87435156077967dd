/*
 * thrustops.cu -- Thrust on the device: thrust::device_vector construction
 * and copies, thrust::sort (keys) and thrust::sort_by_key, thrust::reduce,
 * thrust::transform with a functor, thrust::inclusive_scan,
 * thrust::count_if, all checked against the same algorithms from <algorithm>
 * and <numeric> on the host.  Sizes are small: every Thrust kernel runs on
 * the simulator.
 */
#include <cuda_runtime.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "check.h"

struct Saxpy {
	float a;
	__host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct IsOdd {
	__host__ __device__ bool operator()(int x) const { return x & 1; }
};

int main()
{
	const int n = 1000;
	std::vector<int> h(n);
	for (int i = 0; i < n; i++) h[i] = (int)((i * 2654435761u) % 10007u) - 5000;
	thrust::device_vector<int> d(h.begin(), h.end());
	long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
	EXPECT(sum == std::accumulate(h.begin(), h.end(), 0LL), "reduce %lld", sum);
	int odd = (int)thrust::count_if(d.begin(), d.end(), IsOdd());
	EXPECT(odd == (int)std::count_if(h.begin(), h.end(), [](int x) { return x & 1; }),
	       "count_if %d", odd);
	thrust::device_vector<int> scan(n);
	thrust::inclusive_scan(d.begin(), d.end(), scan.begin());
	std::vector<int> hs(n);
	std::partial_sum(h.begin(), h.end(), hs.begin());
	thrust::host_vector<int> gs = scan;
	for (int i = 0; i < n; i++) EXPECT(gs[i] == hs[i], "scan[%d] = %d, want %d", i, gs[i], hs[i]);

	std::vector<float> x(n), y(n);
	for (int i = 0; i < n; i++) x[i] = 0.5f * i, y[i] = 1.0f - i;
	thrust::device_vector<float> dx(x.begin(), x.end()), dy(y.begin(), y.end()), dz(n);
	thrust::transform(dx.begin(), dx.end(), dy.begin(), dz.begin(), Saxpy{3.0f});
	thrust::host_vector<float> z = dz;
	for (int i = 0; i < n; i++)
		EXPECT(z[i] == 3.0f * x[i] + y[i], "saxpy[%d] = %g", i, z[i]);

	thrust::device_vector<int> keys = d;
	thrust::device_vector<float> vals(dx);
	thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
	thrust::sort(d.begin(), d.end());
	std::vector<int> hk = h;
	std::sort(hk.begin(), hk.end());
	thrust::host_vector<int> gk = d, gk2 = keys;
	thrust::host_vector<float> gv = vals;
	for (int i = 0; i < n; i++) {
		EXPECT(gk[i] == hk[i], "sort[%d] = %d, want %d", i, gk[i], hk[i]);
		EXPECT(gk2[i] == hk[i], "sort_by_key key[%d] = %d, want %d", i, gk2[i], hk[i]);
		int src = (int)(gv[i] * 2.0f);
		EXPECT(src >= 0 && src < n && h[src] == gk2[i], "sort_by_key value[%d] = %g", i, gv[i]);
	}
	std::printf("PASS\n");
	return 0;
}
