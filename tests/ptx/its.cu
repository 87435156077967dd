/*
 * its.cu -- PTX corpus: loops in which lanes of a warp wait for other lanes
 * of the same warp (spin locks with atomicCAS, a nanosleep back-off, an
 * acquire-load flag handed between lanes, a chain through the warp): the
 * kernels of tests/cudart/itslock.cu, which need independent thread
 * scheduling; tests/test_its.py runs them.
 */
#include "../cudart/itslock_kernels.cuh"
