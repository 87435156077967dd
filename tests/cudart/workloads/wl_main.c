/*
 * wl_main.c -- main() of one built-in workload built as a CUDA runtime
 * program (cu_on_cudart.c explains how; tests/test_cudart.py builds it with
 * -DWL=name).  Prints what `rfsim run NAME` reports as its check:
 *
 *   wl_NAME [small|default|large] [SEED]  ->  "PASS <detail>" and exit 0,
 *   "FAIL <detail>" and 1 (wrong output), "ERROR <detail>" and 2 (CUDA error)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

#define RUN_(name) wl_##name##_run
#define RUN(name) RUN_(name)

int main(int argc, char **argv)
{
	WlArgs a = {WL_SMALL, 1, ""};   /* the PTX comes from the program's own fatbin */
	if (argc > 1) {
		if (!strcmp(argv[1], "default")) a.size = WL_DEFAULT;
		else if (!strcmp(argv[1], "large")) a.size = WL_LARGE;
		else if (strcmp(argv[1], "small")) return fprintf(stderr, "bad size %s\n", argv[1]), 2;
	}
	if (argc > 2) a.seed = strtoull(argv[2], NULL, 0);
	char msg[1024] = "";
	int rc = RUN(WL)(&a, msg, sizeof msg);
	printf("%s %s\n", rc == 0 ? "PASS" : rc == 1 ? "FAIL" : "ERROR", msg);
	return rc;
}
