/*
 * stubs.c -- every entry point of NVIDIA's libcudart.so.13 that rfsim does
 * not implement: it says so, by name, and returns cudaErrorNotSupported.
 *
 * A program linked against NVIDIA's runtime needs every symbol it uses to
 * resolve at load time, even for calls it never makes; so the library
 * must export NVIDIA's whole list (stubs.def).  Each row becomes a weak
 * definition here; the runtime's real definitions, in the other files,
 * are strong and win at link time.  Implementing a function is therefore
 * just writing it -- no list to edit.
 *
 * The stubs take no arguments and return an int: under the x86-64 System V
 * ABI the caller owns its argument registers and stack, so any argument
 * list is harmless, and every stubbed function returns cudaError_t (an
 * int).  The few exported functions that return something else (a
 * string, a struct, a handle) are implemented for real, since a stub
 * could not honour their ABI.  This file must not include cudart.h:
 * its prototypes would contradict the stubs'.
 */
#define STUB(name) \
	int name(void) __attribute__((weak)); \
	int name(void) { return rt_unsupported(#name); }
#define X(name) STUB(name)

int rt_unsupported(const char *fn);   /* runtime.c */

#include "cudart/stubs.def"
