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

#endif
