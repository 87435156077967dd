/*
 * test_config.c -- config keys, values, files, includes, help and JSON.
 *
 * Named configs are found through /proc/self/exe (build/unit ->
 * ../configs) or ./configs, so these tests run from the repository root
 * or from any directory when the binary sits in build/.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/base.h"
#include "base/config.h"
#include "base/json.h"
#include "base/rftech.h"
#include "unit.h"

TEST(config_defaults_are_fermi)
{
	Config c;
	config_defaults(&c);
	CHECK_EQ(c.seed, 1);
	CHECK_EQ(c.sm_count, 15);
	CHECK_EQ(c.sm_registers, 32768);
	CHECK_EQ(c.sm_max_warps, 48);
	CHECK_EQ(c.gpu_global_bytes, 4ll << 30);
	CHECK(c.gpu_clock_mhz == 1400);
	CHECK_EQ(c.sim_mode, SIM_MODE_TIMING);
	CHECK_STR(c.name, "fermi-gtx480");

	/* configs/fermi-gtx480.cfg restates the defaults */
	Config f;
	config_defaults(&f);
	memset(f.name, 0, sizeof f.name);
	CHECK_EQ(config_load(&f, "fermi-gtx480"), RF_OK);
	CHECK_STR(f.name, "fermi-gtx480");
	CHECK(!memcmp(&c, &f, sizeof c));
}

TEST(config_set_values)
{
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_set(&c, "sm.count", "4"), RF_OK);
	CHECK_EQ(c.sm_count, 4);
	CHECK_EQ(config_set(&c, "sm.registers", "0x10000"), RF_OK);
	CHECK_EQ(c.sm_registers, 65536);
	CHECK_EQ(config_set(&c, "sm.shared_bytes", "64K"), RF_OK);
	CHECK_EQ(c.sm_shared_bytes, 65536);
	CHECK_EQ(config_set(&c, "gpu.global_bytes", "2G"), RF_OK);
	CHECK_EQ(c.gpu_global_bytes, 2ll << 30);
	CHECK_EQ(config_set(&c, "seed", "9223372036854775807"), RF_OK);
	CHECK_EQ(c.seed, INT64_MAX);
	CHECK_EQ(config_set(&c, "gpu.clock_mhz", "1137.5"), RF_OK);
	CHECK(c.gpu_clock_mhz == 1137.5);
	CHECK_EQ(config_set(&c, "sim.mode", "functional"), RF_OK);
	CHECK_EQ(c.sim_mode, SIM_MODE_FUNCTIONAL);
	CHECK_EQ(config_set(&c, "sim.mode", "timing"), RF_OK);
	CHECK_EQ(c.sim_mode, SIM_MODE_TIMING);
	CHECK_EQ(config_set_kv(&c, "sm.max_ctas=16"), RF_OK);
	CHECK_EQ(c.sm_max_ctas, 16);
}

TEST(config_set_errors_name_key_value_range)
{
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_set(&c, "sm.cont", "4"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "'sm.cont'");
	CHECK_CONTAINS(err_msg(), "did you mean 'sm.count'");
	CHECK_EQ(config_set(&c, "frobnicate", "4"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "unknown config key 'frobnicate'");

	CHECK_EQ(config_set(&c, "sm.count", "0"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "'0'");
	CHECK_CONTAINS(err_msg(), "sm.count");
	CHECK_CONTAINS(err_msg(), "1..4096");
	CHECK_EQ(config_set(&c, "sm.count", "many"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "'many'");
	CHECK_CONTAINS(err_msg(), "an integer in 1..4096");
	const char *bad[] = {"", "4x", "-", "0x", "1.5", " 4", "99999999999999999999",
	                     "16777216T", "--3"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_EQ(config_set(&c, "sm.count", bad[i]), RF_EINPUT);
	CHECK_EQ(config_set(&c, "seed", "-1"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "out of range");
	CHECK_EQ(config_set(&c, "seed", "9223372036854775808"), RF_EINPUT);
	CHECK_EQ(c.sm_count, 15);           /* failed sets change nothing */
	CHECK_EQ(c.seed, 1);

	CHECK_EQ(config_set(&c, "gpu.clock_mhz", "fast"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "a number in 1..100000");
	CHECK_EQ(config_set(&c, "gpu.clock_mhz", "inf"), RF_EINPUT);
	CHECK_EQ(config_set(&c, "gpu.clock_mhz", "nan"), RF_EINPUT);
	CHECK_EQ(config_set(&c, "gpu.clock_mhz", "0.5"), RF_EINPUT);
	CHECK_EQ(config_set(&c, "sim.mode", "fast"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "one of timing|functional");

	CHECK_EQ(config_set_kv(&c, "sm.count"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "key=value");
	CHECK_EQ(config_set_kv(&c, "=4"), RF_EINPUT);
}

TEST(config_bool_and_string_keys)
{
	/* no bool or string key exists yet: drive the generic parser directly */
	ConfigKey b = {.key = "t.flag", .help = "", .type = CONFIG_BOOL};
	ConfigKey s = {.key = "t.name", .help = "", .type = CONFIG_STR, .sdef = ""};
	int flag = 5;
	CHECK_EQ(config_key_parse(&b, "true", &flag), RF_OK);
	CHECK_EQ(flag, 1);
	CHECK_EQ(config_key_parse(&b, "0", &flag), RF_OK);
	CHECK_EQ(flag, 0);
	CHECK_EQ(config_key_parse(&b, "yes", &flag), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "0, 1, true or false");
	char str[CONFIG_STR_MAX];
	CHECK_EQ(config_key_parse(&s, "hello world", str), RF_OK);
	CHECK_STR(str, "hello world");
	char longv[CONFIG_STR_MAX + 1];
	memset(longv, 'x', CONFIG_STR_MAX);
	longv[CONFIG_STR_MAX] = 0;
	CHECK_EQ(config_key_parse(&s, longv, str), RF_EINPUT);
}

TEST(config_key_table)
{
	int n;
	const ConfigKey *k = config_keys(&n);
	CHECK(n >= 14);
	for (int i = 0; i < n; i++) {
		CHECK(config_key_find(k[i].key) == &k[i]);
		CHECK(k[i].help && k[i].help[0]);
		if (k[i].type == CONFIG_INT) CHECK(k[i].imin <= k[i].idef && k[i].idef <= k[i].imax);
		if (k[i].type == CONFIG_NUM) CHECK(k[i].fmin <= k[i].fdef && k[i].fdef <= k[i].fmax);
		/* field name = key with dots as underscores is checked by the compiler
		 * (offsetof in config.c); here, that keys are unique */
		for (int j = 0; j < i; j++) CHECK(strcmp(k[i].key, k[j].key));
	}
	const ConfigKey *m = config_key_find("sim.mode");
	char buf[32];
	CHECK_STR(config_choice(m, SIM_MODE_TIMING, buf, sizeof buf), "timing");
	CHECK_STR(config_choice(m, SIM_MODE_FUNCTIONAL, buf, sizeof buf), "functional");
	CHECK(config_choice(m, 2, buf, sizeof buf) == NULL);
	CHECK(config_key_find("nope") == NULL);
}

TEST(config_named_configs_all_load)
{
	char names[64][64];
	int n = config_names(names, 64);
	CHECK(n >= 4);
	int seen = 0;
	for (int i = 0; i < n; i++) {
		Config c;
		config_defaults(&c);
		if (config_load(&c, names[i]) != RF_OK) {
			unit_fail(__FILE__, __LINE__, "%s: %s", names[i], err_msg());
			continue;
		}
		CHECK_STR(c.name, names[i]);
		if (!strcmp(names[i], "maxwell-ltrf")) {
			seen++;
			CHECK_EQ(c.sm_count, 24);
			CHECK_EQ(c.sm_registers, 65536);
			CHECK(c.gpu_clock_mhz == 1137);
		}
		if (!strcmp(names[i], "hopper-h100")) {
			seen++;
			CHECK_EQ(c.sm_shared_bytes, 228 * 1024);
			CHECK_EQ(c.gpu_global_bytes, 80ll << 30);
		}
	}
	CHECK_EQ(seen, 2);
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_load(&c, "no-such-gpu"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "unknown config 'no-such-gpu'");
	CHECK_CONTAINS(err_msg(), "maxwell-ltrf");
	CHECK_EQ(config_load(&c, "/nonexistent/x.cfg"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "/nonexistent/x.cfg");
}

/* a scratch directory with files; removed by rm_tmp */
static char tmpdir[64];

static void put(const char *name, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f) return;
	fputs(text, f);
	fclose(f);
}

static int load(Config *c, const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	config_defaults(c);
	return config_load(c, path);
}

static void rm_tmp(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	CHECK_EQ(system(cmd), 0);
}

TEST(config_files_and_includes)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/rfsim-cfgtest-XXXXXX");
	CHECK(mkdtemp(tmpdir) != NULL);
	put("base.cfg", "# base\n\nsm.count = 3   # trailing comment\nseed=7\r\n");
	put("top.cfg", "include = base\nsm.count = 5\n  sim.mode = timing\n");
	put("fermi.cfg", "include = fermi-gtx480\nsm.registers = 65536\n");
	put("bad.cfg", "sm.count = 2\n\nsm.registers = lots\n");
	put("nokey.cfg", "# ok\nsm.count 4\n");
	put("unk.cfg", "sm.regs = 4\n");
	put("badinc.cfg", "seed = 2\ninclude = bad\n");
	put("cycle.cfg", "include = cycle\n");
	put("missing.cfg", "include = not-there\n");

	Config c;
	CHECK_EQ(load(&c, "base.cfg"), RF_OK);
	CHECK_EQ(c.sm_count, 3);
	CHECK_EQ(c.seed, 7);
	CHECK_STR(c.name, "base");
	CHECK_EQ(load(&c, "top.cfg"), RF_OK);
	CHECK_EQ(c.sm_count, 5);
	CHECK_EQ(c.seed, 7);
	CHECK_EQ(c.sim_mode, SIM_MODE_TIMING);
	CHECK_STR(c.name, "top");
	CHECK_EQ(load(&c, "fermi.cfg"), RF_OK);        /* include by config name */
	CHECK_EQ(c.sm_registers, 65536);
	CHECK_EQ(c.sm_max_warps, 48);

	CHECK_EQ(load(&c, "bad.cfg"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "bad.cfg:3: bad value 'lots' for sm.registers");
	CHECK_EQ(load(&c, "nokey.cfg"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "nokey.cfg:2: expected 'key = value'");
	CHECK_EQ(load(&c, "unk.cfg"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "unk.cfg:1: unknown config key 'sm.regs'");
	CHECK_EQ(load(&c, "badinc.cfg"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "bad.cfg:3:");
	CHECK_EQ(load(&c, "cycle.cfg"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "include cycle");
	CHECK_EQ(load(&c, "missing.cfg"), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "missing.cfg:1: unknown config 'not-there'");
	rm_tmp();
}

TEST(config_json_and_help)
{
	Config c;
	config_defaults(&c);
	config_set(&c, "sim.mode", "timing");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	Json *j = json_open(f);
	json_obj_begin(j, NULL);
	json_key(j, "config");
	config_json(&c, j);
	json_obj_end(j);
	CHECK_EQ(json_close(j), RF_OK);
	fclose(f);
	CHECK_CONTAINS(buf, "{\n  \"config\": {\n    \"name\": \"fermi-gtx480\",\n");
	CHECK_CONTAINS(buf, "\"sm.count\": 15,");
	CHECK_CONTAINS(buf, "\"sim.mode\": \"timing\",");
	CHECK_CONTAINS(buf, "\"gpu.clock_mhz\": 1400,");
	CHECK_CONTAINS(buf, "\"gpu.global_bytes\": 4294967296,");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	config_help(f);
	fclose(f);
	int n;
	const ConfigKey *k = config_keys(&n);
	for (int i = 0; i < n; i++) CHECK_CONTAINS(buf, k[i].key);
	CHECK_CONTAINS(buf, "sm.count = 15    (integer 1..4096)");
	CHECK_CONTAINS(buf, "sim.mode = timing    (one of timing|functional)");
	for (char *line = buf; *line;) {            /* help fits in 80 columns */
		char *nl = strchr(line, '\n');
		CHECK(nl && nl - line <= 80);
		if (!nl) break;
		line = nl + 1;
	}
	free(buf);
}

/* LTRF Table 2 applied to a register file of 65536 registers, 16 banks and
 * a 1-cycle or 4-cycle main register file: capacity, banks and latency
 * (round(base x factor), at least base + 1 when the factor is above 1) */
TEST(config_rf_tech_scales_the_register_file)
{
	Config c;
	config_defaults(&c);
	c.sm_registers = 65536;
	c.rf_banks = 16;
	c.rf_mrf_latency = 1;
	static const int64_t regs[8] = {65536, 65536, 524288, 524288, 524288, 524288, 524288, 524288};
	static const int64_t banks[8] = {16, 16, 16, 128, 16, 128, 128, 128};
	static const int64_t lat1[8] = {1, 1, 2, 2, 2, 3, 5, 6};
	static const int64_t lat4[8] = {4, 4, 5, 6, 6, 11, 21, 25};
	for (int t = 0; t <= 7; t++) {
		c.rf_tech = t;
		c.rf_mrf_latency = 1;
		CHECK_EQ(rftech_registers(&c), regs[t]);
		CHECK_EQ(rftech_banks(&c), banks[t]);
		CHECK_EQ(rftech_mrf_latency(&c), lat1[t]);
		c.rf_mrf_latency = 4;
		CHECK_EQ(rftech_mrf_latency(&c), lat4[t]);
	}
	CHECK_EQ(config_set(&c, "rf.tech", "8"), RF_EINPUT);
	CHECK(strstr(err_msg(), "rf.tech") != NULL);
	c.rf_banks = 0;
	c.rf_tech = 7;
	CHECK_EQ(rftech_banks(&c), 0);               /* unlimited stays unlimited */
}
