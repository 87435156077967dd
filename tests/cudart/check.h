/*
 * check.h -- what every test program in tests/cudart/ shares: CHECK(call)
 * stops the program with the failing call, its error name and line, and
 * EXPECT(cond, ...) with a message; a program that reaches its end prints
 * PASS and exits 0.  Plain CUDA: the programs build and run unchanged on a
 * real GPU with NVIDIA's runtime, which is how their expectations were
 * written.
 */
#ifndef CHECK_H
#define CHECK_H

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { \
	cudaError_t e_ = (call); \
	if (e_ != cudaSuccess) { \
		std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call, \
		             cudaGetErrorName(e_), cudaGetErrorString(e_)); \
		std::exit(1); \
	} } while (0)

#define EXPECT(cond, ...) do { \
	if (!(cond)) { \
		std::fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond); \
		std::fprintf(stderr, __VA_ARGS__); \
		std::fputc('\n', stderr); \
		std::exit(1); \
	} } while (0)

/* a device buffer and a host copy of it, for programs that must also run where
 * managed memory cannot be had (rfsim's sanitizer build): fill h (or index the
 * Mirror), up() to the device, launch on d, down() to read the results */
template <class T> struct Mirror {
	T *d = nullptr;
	std::vector<T> h;
	explicit Mirror(size_t n, int fill = 0) : h(n)
	{
		CHECK(cudaMalloc(&d, n * sizeof(T)));
		CHECK(cudaMemset(d, fill, n * sizeof(T)));
		CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
	}
	~Mirror() { cudaFree(d); }
	Mirror(const Mirror &) = delete;
	Mirror &operator=(const Mirror &) = delete;
	void up() { CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); }
	void down() { CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost)); }
	T &operator[](size_t i) { return h[i]; }
};

#endif
