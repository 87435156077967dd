/*
 * replay.c -- a fuzz target without libFuzzer: feeds each file named (a
 * directory: each file in it) to the target's LLVMFuzzerTestOneInput, once.
 * The normal and sanitizer builds link every target with it
 * ($(BUILD)/replay/TARGET), and tests/test_fuzz.py replays fuzz/seeds/ --
 * the minimized inputs of the bugs fuzzing found among them -- so that
 * `make check` pins those bugs without clang.  A bug aborts (die, assert,
 * a sanitizer report); exit 0 otherwise, whatever the inputs' errors.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz.h"

static void one(const char *path)
{
	size_t n;
	char *data = read_file_max(path, 16u << 20, "the limit for a fuzz input", &n);
	if (!data) die("%s", err_msg());
	fprintf(stderr, "replay %s\n", path);
	LLVMFuzzerTestOneInput((const uint8_t *)data, n);
	free(data);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			one(argv[i]);
			continue;
		}
		struct dirent **e;
		int n = scandir(argv[i], &e, NULL, by_name);
		for (int k = 0; k < n; k++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[i], e[k]->d_name);
			if (e[k]->d_name[0] != '.') one(path);
			free(e[k]);
		}
		free(e);
	}
	return 0;
}
