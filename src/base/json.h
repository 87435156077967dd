/*
 * json.h -- a streaming JSON writer for statistics and configs.
 *
 * Values go straight to a FILE*, pretty-printed with a two-space indent,
 * in the order they are written: the same calls give the same bytes, so
 * two runs' stats files can be compared with diff.  Inside an object
 * every value has a key; inside an array and at the top the key is NULL.
 * json_key() names the next value instead, for callees such as
 * config_json() that write one value without knowing where it goes.
 *
 * Strings are escaped per RFC 8259 (bytes that are not valid UTF-8 become
 * U+FFFD, so the output always parses); doubles are written in the
 * shortest %.15g..%.17g form that reads back to the same value, and NaN
 * and infinities, which JSON cannot spell, as null.  Nesting mistakes are
 * bugs in rfsim and fail an assert.
 */
#ifndef RFSIM_BASE_JSON_H
#define RFSIM_BASE_JSON_H

#include <stdint.h>
#include <stdio.h>

typedef struct Json Json;

Json *json_open(FILE *f);
int json_close(Json *j);      /* all closed? newline, flush; RF_ERUNTIME on write error */

void json_key(Json *j, const char *key);  /* key of the next value (which passes NULL) */
void json_obj_begin(Json *j, const char *key);
void json_obj_end(Json *j);
void json_arr_begin(Json *j, const char *key);
void json_arr_end(Json *j);
void json_int(Json *j, const char *key, int64_t v);
void json_uint(Json *j, const char *key, uint64_t v);
void json_num(Json *j, const char *key, double v);
void json_str(Json *j, const char *key, const char *s);
void json_bool(Json *j, const char *key, int v);
void json_null(Json *j, const char *key);

#endif
