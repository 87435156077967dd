/*
 * test_json.c -- the JSON writer: layout, escaping, numbers.
 *
 * Output is compared byte for byte: stats files are diffed across runs,
 * so the exact spelling is part of the contract.
 */
#include <math.h>
#include <stdlib.h>

#include "base/base.h"
#include "base/json.h"
#include "unit.h"

/* run fn on a writer over a memory stream; return what it wrote (malloc'd) */
static char *render(void (*fn)(Json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	Json *j = json_open(f);
	fn(j);
	CHECK_EQ(json_close(j), RF_OK);
	fclose(f);
	return buf;
}

static void nested(Json *j)
{
	json_obj_begin(j, NULL);
	json_str(j, "name", "k");
	json_arr_begin(j, "grid");
	json_int(j, NULL, 4);
	json_int(j, NULL, 1);
	json_arr_end(j);
	json_obj_begin(j, "empty");
	json_obj_end(j);
	json_arr_begin(j, "none");
	json_arr_end(j);
	json_arr_begin(j, "objs");
	json_obj_begin(j, NULL);
	json_bool(j, "t", 1);
	json_bool(j, "f", 0);
	json_null(j, "n");
	json_obj_end(j);
	json_arr_end(j);
	json_key(j, "keyed");
	json_obj_begin(j, NULL);
	json_uint(j, "u", 7);
	json_obj_end(j);
	json_obj_end(j);
}

TEST(json_layout)
{
	char *s = render(nested);
	CHECK_STR(s,
		"{\n"
		"  \"name\": \"k\",\n"
		"  \"grid\": [\n"
		"    4,\n"
		"    1\n"
		"  ],\n"
		"  \"empty\": {},\n"
		"  \"none\": [],\n"
		"  \"objs\": [\n"
		"    {\n"
		"      \"t\": true,\n"
		"      \"f\": false,\n"
		"      \"n\": null\n"
		"    }\n"
		"  ],\n"
		"  \"keyed\": {\n"
		"    \"u\": 7\n"
		"  }\n"
		"}\n");
	free(s);
}

static void strings(Json *j)
{
	json_arr_begin(j, NULL);
	json_str(j, NULL, "q\"b\\s/");
	json_str(j, NULL, "\n\t\r\b\f\x01\x1f\x7f");
	json_str(j, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");  /* valid UTF-8 */
	json_str(j, NULL, "a\xff" "b\xc3" "c\xc0\xaf" "d\xed\xa0\x80");  /* invalid */
	json_str(j, NULL, "");
	json_arr_end(j);
}

TEST(json_escaping)
{
	char *s = render(strings);
	CHECK_STR(s,
		"[\n"
		"  \"q\\\"b\\\\s/\",\n"
		"  \"\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f\",\n"
		"  \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\",\n"
		"  \"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffd\",\n"
		"  \"\"\n"
		"]\n");
	free(s);
}

static void numbers(Json *j)
{
	json_arr_begin(j, NULL);
	json_num(j, NULL, 0.1);
	json_num(j, NULL, 1.0);
	json_num(j, NULL, -2.5e-300);
	json_num(j, NULL, 1e300);
	json_num(j, NULL, NAN);
	json_num(j, NULL, INFINITY);
	json_num(j, NULL, -INFINITY);
	json_int(j, NULL, INT64_MIN);
	json_uint(j, NULL, UINT64_MAX);
	json_arr_end(j);
}

TEST(json_numbers)
{
	char *s = render(numbers);
	CHECK_STR(s,
		"[\n"
		"  0.1,\n"
		"  1,\n"
		"  -2.5e-300,\n"
		"  1e+300,\n"
		"  null,\n"
		"  null,\n"
		"  null,\n"
		"  -9223372036854775808,\n"
		"  18446744073709551615\n"
		"]\n");
	free(s);
}

static double roundtrip_v;
static void one_num(Json *j) { json_num(j, NULL, roundtrip_v); }

TEST(json_numbers_round_trip)
{
	double vs[] = {1.0 / 3, 2.0 / 3, 1e-310, 123456789.123456789, 0.1 + 0.2,
	               4.35, -0.0, 5e-324, 1.7976931348623157e308};
	for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
		roundtrip_v = vs[i];
		char *s = render(one_num);
		CHECK(strtod(s, NULL) == vs[i]);
		CHECK(strlen(s) <= 25);
		free(s);
	}
}
