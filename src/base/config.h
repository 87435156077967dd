/*
 * config.h -- the simulated machine's parameters, and how people set them.
 *
 * Every knob of rfsim is one row of config.def (key, type, default,
 * range, help), expanded here into the fields of Config and in config.c
 * into a key table that drives parsing, range checks, `rfsim config
 * --help` and the "config" object of every stats file.  A Config is a
 * plain value: copy it, compare it with memcmp after config_defaults.
 *
 * Three ways to set keys, applied in this order by the CLI:
 *   1. config_defaults -- the built-in machine (the Fermi GTX 480);
 *   2. config_load     -- a file of `key = value` lines, named on the
 *      command line by path or by name (configs/NAME.cfg, found next to
 *      the rfsim executable's repository, then in ./configs);
 *   3. config_set / config_set_kv -- one key, from `-s key=value`.
 * A file may start with `include = OTHER` to build on another config.
 *
 * Every error is a user's mistake: RF_EINPUT with a message (err_msg())
 * that names the key, the value and what would have been accepted.
 */
#ifndef RFSIM_BASE_CONFIG_H
#define RFSIM_BASE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CONFIG_STR_MAX 256       /* CS string fields hold at most 255 bytes */

typedef struct Config {
#define CI(f, k, d, lo, hi, h) int64_t f;
#define CF(f, k, d, lo, hi, h) double f;
#define CE(f, k, d, ch, h) int f;
#define CB(f, k, d, h) int f;
#define CS(f, k, d, ch, h) char f[CONFIG_STR_MAX];
#include "base/config.def"
#undef CI
#undef CF
#undef CE
#undef CB
#undef CS
	char name[64];           /* config it came from ("fermi-gtx480"), for reports */
} Config;

/* choices of the CE keys, in the order config.def lists them (unit-tested) */
enum { SIM_MODE_TIMING, SIM_MODE_FUNCTIONAL };
enum { REG_GRAN_WARP, REG_GRAN_BLOCK, REG_GRAN_THREAD };   /* sm.reg_alloc_granularity */
enum { MEM_OOB_FAULT, MEM_OOB_WARN, MEM_OOB_ALLOW };                  /* mem.oob */

/* the key table, for code that walks every key (help, JSON, sweeps) */
typedef enum ConfigType { CONFIG_INT, CONFIG_NUM, CONFIG_ENUM, CONFIG_BOOL,
                          CONFIG_STR } ConfigType;

typedef struct ConfigKey {
	const char *key;         /* "sm.count" */
	const char *help;
	ConfigType type;
	size_t off;              /* offsetof(Config, field) */
	int64_t idef, imin, imax;/* CI; CE and CB keep their default in idef */
	double fdef, fmin, fmax; /* CF */
	const char *choices;     /* CE: "a|b|c"; CS: the letters its value may hold
	                            (NULL: any string) */
	const char *sdef;        /* CS */
} ConfigKey;

typedef struct Json Json;

void config_defaults(Config *c);
int config_set(Config *c, const char *key, const char *value);
int config_set_kv(Config *c, const char *kv);             /* "key=value" */
int config_load(Config *c, const char *name_or_path);

const ConfigKey *config_keys(int *n);
const ConfigKey *config_key_find(const char *key);        /* NULL if unknown */
/* parse value for key k into field (which has k's type); RF_EINPUT on error */
int config_key_parse(const ConfigKey *k, const char *value, void *field);
/* name of choice i of a CE key (into buf), or NULL if out of range */
const char *config_choice(const ConfigKey *k, int i, char *buf, size_t n);

/* where configs live: resolve a name or path to a readable file (RF_EINPUT
 * with the places tried, and the known names, if none); list the names */
int config_find(const char *name_or_path, char *path, size_t n);
int config_names(char (*names)[64], int max);             /* sorted; -> count */

void config_json(const Config *c, Json *j);               /* {"name":..., key: value...} */
void config_help(FILE *f);

#endif
