/*
 * mbarrier.cu -- PTX corpus: libcu++'s block-scope synchronisation objects
 * (the kernels of tests/cudart/barrier.cu): a
 * cuda::barrier<thread_scope_block> in shared memory (init, arrive_and_wait,
 * arrive + wait on the token, arrive_and_drop), cuda::memcpy_async of a tile
 * completing on that barrier, and a two-stage cuda::pipeline
 * (producer_acquire/commit, consumer_wait/release) double-buffering tiles;
 * all compile to mbarrier.* PTX.
 */
#include "../cudart/barrier_kernels.cuh"
