/*
 * config.c -- fuzz target: config files and -s overrides (src/base/config.c),
 * as `rfsim config -c FILE -s KEY=VALUE...` takes them.
 *
 * Input: the config file's text, then optionally a NUL and the overrides,
 * one KEY=VALUE per line (or per NUL).  The text is written to a file and
 * loaded with config_load, so `include = NAME` reaches the built-in configs
 * and `include = FILE` files; then each override goes through
 * config_set_kv, and the result is printed as `rfsim config` prints it.
 */
#include "fuzz.h"
#include "base/json.h"

static FILE *null_out;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	if (!(null_out = fopen("/dev/null", "w"))) die("cannot open /dev/null");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t text = nul ? (size_t)(nul - data) : size;
	Config c;
	config_defaults(&c);
	int rc = config_load(&c, fuzz_file("fuzz.cfg", data, text));
	if (rc == RF_OK && nul) {
		size_t n = size - text - 1;
		char *sets = xmalloc(n + 1);
		memcpy(sets, nul + 1, n);
		sets[n] = 0;
		for (size_t i = 0; i < n; i++)     /* a NUL separates too */
			if (!sets[i]) sets[i] = '\n';
		char *save = NULL;
		for (char *kv = strtok_r(sets, "\n", &save); kv && rc == RF_OK;
		     kv = strtok_r(NULL, "\n", &save))
			rc = config_set_kv(&c, kv);
		free(sets);
	}
	if (rc == RF_OK) {
		Json *j = json_open(null_out);
		config_json(&c, j);
		json_close(j);
	}
	err_clear();
	return 0;
}
