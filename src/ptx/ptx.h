/*
 * ptx.h -- reading and writing PTX text.
 *
 * ptx_parse turns PTX as nvcc 11-13 emits it (also minified, as inside
 * fatbins) into the IR of ir.h; ptx_print writes a module back as PTX that
 * ptxas accepts and that parses to the same IR (ir_equal).  Errors are
 * "FILE:LINE:COL: message" in err_msg() (base.h).
 */
#ifndef RFSIM_PTX_PTX_H
#define RFSIM_PTX_PTX_H

#include <stddef.h>
#include <stdio.h>

#include "ptx/ir.h"

/* NULL on error, with err_set("FILE:LINE:COL: message"); text need not end in NUL */
Module *ptx_parse(const char *text, size_t len, const char *filename);

void ptx_print(const Module *m, FILE *f);
char *ptx_print_str(const Module *m, size_t *len);   /* malloc'd, NUL-terminated */
/* one instruction of fn as a body line: tab, text, ";\n" (listings, dumps) */
void ptx_print_ins(const Module *m, const Func *fn, const Ins *in, FILE *f);

/* relocatable device code (link.c): the units' PTX joined into one module's text,
 * externs resolved by name; provided(name): an extern function the simulator itself
 * supplies (may be NULL).  NULL with err_msg() on a parse or link error. */
typedef struct PtxUnit {
	const char *text;
	size_t len;
	const char *name;        /* for messages: the unit's file name */
} PtxUnit;
char *ptx_link(const PtxUnit *u, int n, int (*provided)(const char *), size_t *len);

#endif
