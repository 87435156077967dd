/*
 * seeds.c -- the seed corpora of the fuzz targets, made from the
 * repository's own files in each target's input form (`make fuzz` runs it
 * into $(BUILD)/fuzz/seeds/; fuzz/seeds/ holds the committed ones):
 *
 *   seeds ptx OUTDIR A.ptx...     each file after a settings byte (fuzz/ptx.c),
 *                                 a different one per file; files over 64 KiB
 *                                 are left out (libFuzzer's inputs stay small)
 *   seeds config OUTDIR A.cfg...  each config, and each with -s overrides
 *   seeds sweep OUTDIR            the sweep of every experiment of
 *                                 src/exp/experiments.def (`rfsim reproduce`)
 *   seeds fatbin OUTDIR A.ptx...  nvcc-style fatbins (src/cudart/fatbin.c has
 *                                 the format) around each file: its PTX stored
 *                                 plain, zstd and LZ4 beside an ELF entry; two
 *                                 PTX entries of different architectures; two
 *                                 units of a device link; then one container of
 *                                 machine code only and one of NVVM IR only
 *   seeds dict TARGET OUT [FILE...]  libFuzzer's dictionary for ptx (ops.def's
 *                                 mnemonics, directives, types, modifiers),
 *                                 config (config.def's keys) or sweep (those,
 *                                 the sweep words, and FILEs' base names:
 *                                 workloads, configs)
 */
#include <lz4.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum { PLAIN, ZSTD, LZ4 };

typedef struct Buf { uint8_t *p; size_t n, cap; } Buf;

static void put(Buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		if (!(b->p = realloc(b->p, b->cap))) exit(1);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void le(Buf *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		uint8_t c = (uint8_t)(v >> 8 * i);
		put(b, &c, 1);
	}
}

/* one entry of kind (1 PTX, 2 ELF, 8 NVVM IR) for arch, its payload stored how */
static void entry(Buf *b, int kind, int arch, const char *payload, size_t n, int how)
{
	size_t cap = ZSTD_compressBound(n) + (size_t)LZ4_compressBound((int)n) + 16;
	char *out = malloc(cap);
	size_t stored = n;
	uint64_t flags = 0x11;
	if (how == ZSTD) {
		stored = ZSTD_compress(out, cap, payload, n, 3);
		flags |= 0x8000;
	} else if (how == LZ4) {
		stored = (size_t)LZ4_compress_default(payload, out, (int)n, (int)cap);
		flags |= 0x2000;
	} else {
		memcpy(out, payload, n);
	}
	size_t padded = (stored + 7) & ~(size_t)7;
	le(b, (uint64_t)kind, 2);
	le(b, 0x101, 2);
	le(b, 64, 4);                              /* header bytes */
	le(b, padded, 8);
	le(b, how == PLAIN ? 0 : stored, 4);
	le(b, 0, 4);
	le(b, 0, 2);                               /* PTX ISA 8.0 */
	le(b, 8, 2);
	le(b, (uint64_t)arch, 4);
	le(b, 0, 8);                               /* no object name */
	le(b, flags, 8);
	le(b, 0, 8);
	le(b, how == PLAIN ? 0 : n, 8);
	put(b, out, stored);
	le(b, 0, (int)(padded - stored));
	free(out);
}

static size_t begin(Buf *b)
{
	size_t at = b->n;
	le(b, 0xBA55ED50, 4);
	le(b, 1, 2);
	le(b, 16, 2);
	le(b, 0, 8);                               /* entries' size, set by end() */
	return at;
}

static void end(Buf *b, size_t at)
{
	uint64_t n = b->n - at - 16;
	for (int i = 0; i < 8; i++) b->p[at + 8 + i] = (uint8_t)(n >> 8 * i);
}

static void emit(const char *dir, const char *name, int k, Buf *b)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s-%d", dir, name, k);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
		perror(path);
		exit(1);
	}
	b->n = 0;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) return perror(path), exit(1), NULL;
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	char *s = malloc(*n + 1);
	if (!s || fread(s, 1, *n, f) != *n) exit(1);
	s[*n] = 0;
	fclose(f);
	return s;
}

static void fatbins(const char *dir, int nfile, char **files)
{
	static const char elf[] = "\177ELF machine code nobody can simulate";
	Buf b = {0};
	for (int i = 0; i < nfile; i++) {
		size_t n, at;
		char *ptx = slurp(files[i], &n);
		for (int how = PLAIN; how <= LZ4; how++) {   /* mode 0, compute 80 */
			le(&b, 0x10, 1);
			at = begin(&b);
			entry(&b, 2, 80, elf, sizeof elf, ZSTD);
			entry(&b, 1, 80, ptx, n + 1, how);
			end(&b, at);
			emit(dir, "unit", i * 8 + how, &b);
		}
		le(&b, 0x0e, 1);                              /* compute 75: takes the 70 */
		at = begin(&b);
		entry(&b, 1, 90, ptx, n, ZSTD);
		entry(&b, 1, 70, ptx, n, LZ4);
		end(&b, at);
		emit(dir, "unit", i * 8 + 3, &b);
		le(&b, 0x17, 1);                              /* a device link of two units */
		for (int u = 0; u < 2; u++) {
			at = begin(&b);
			entry(&b, 2, 90, elf, sizeof elf, PLAIN);
			entry(&b, 1, 90, ptx, n, u ? LZ4 : ZSTD);
			end(&b, at);
		}
		emit(dir, "unit", i * 8 + 4, &b);
		free(ptx);
	}
	le(&b, 0x10, 1);                                  /* machine code only */
	size_t at = begin(&b);
	entry(&b, 2, 80, elf, sizeof elf, PLAIN);
	entry(&b, 2, 90, elf, sizeof elf, LZ4);
	end(&b, at);
	emit(dir, "sass", 0, &b);
	le(&b, 0x10, 1);                                  /* NVVM IR only (-dlto) */
	at = begin(&b);
	entry(&b, 8, 90, elf, sizeof elf, ZSTD);
	end(&b, at);
	emit(dir, "nvvm", 0, &b);
	free(b.p);
}

static void ptxs(const char *dir, int nfile, char **files)
{
	Buf b = {0};
	for (int i = 0; i < nfile; i++) {
		size_t n;
		char *ptx = slurp(files[i], &n);
		if (n <= 64 * 1024) {
			le(&b, (uint64_t)(i * 37 + 5) & 0xff, 1);  /* every settings byte, spread */
			put(&b, ptx, n);
			emit(dir, "ptx", i, &b);
		}
		free(ptx);
	}
	free(b.p);
}

static void configs(const char *dir, int nfile, char **files)
{
#define S(x) {x, sizeof x - 1}
	static const struct { const char *s; size_t n; } sets[] = {   /* -s: after a NUL */
		S(""), S("\0sm.count=2\nrf.model=ltrf"), S("\0rf.model=rfc\0rfc.entries=4\0seed=0x10"),
		S("\0l2.size=1M\nsched.policy=twolevel\ncompiler.dump=cl"),
	};
#undef S
	Buf b = {0};
	for (int i = 0; i < nfile; i++) {
		size_t n;
		char *cfg = slurp(files[i], &n);
		for (int k = 0; k < 4; k++) {
			put(&b, cfg, n);
			put(&b, sets[k].s, sets[k].n);
			emit(dir, "cfg", i * 4 + k, &b);
		}
		free(cfg);
	}
	free(b.p);
}

static void sweeps(const char *dir)
{
	static const char *const text[] = {
#define EXP(n, p, f, d, s, pl, pub) s,
#include "exp/experiments.def"
#undef EXP
	};
	Buf b = {0};
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
		if (text[i][0] == '@') continue;             /* another experiment's points */
		put(&b, text[i], strlen(text[i]));
		emit(dir, "exp", (int)i, &b);
	}
	free(b.p);
}

static void word(FILE *f, const char *w, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)w[i];
		if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
		else if (c < 32 || c > 126) fprintf(f, "\\x%02X", c);
		else fputc(c, f);
	}
	fputs("\"\n", f);
}

static void words(FILE *f, const char *const *w, size_t n)
{
	for (size_t i = 0; i < n; i++) word(f, w[i], strlen(w[i]));
}

static const char *const ptx_words[] = {
	".version", ".target", ".address_size", ".visible", ".extern", ".weak", ".entry",
	".func", ".param", ".reg", ".pred", ".local", ".shared", ".global", ".const", ".tex",
	".align", ".maxnreg", ".maxntid", ".reqntid", ".minnctapersm", ".noreturn", ".loc",
	".file", ".pragma", ".callprototype", ".b8", ".b16", ".b32", ".b64", ".b128", ".u8",
	".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16",
	".f32", ".f64", ".v2", ".v4", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".hi",
	".wide", ".rn", ".rz", ".rm", ".rp", ".rni", ".sat", ".ftz", ".approx", ".full",
	".sync", ".aligned", ".uni", ".all", ".any", ".ballot", ".cta", ".gpu", ".sys",
	".relaxed", ".acquire", ".release", ".volatile", ".and", ".or", ".xor", ".add",
	".cas", ".exch", ".min", ".max", ".inc", ".dec", ".idx", ".up", ".down", ".bfly",
	".to", ".ca", ".cg", ".cs", ".nc", "sm_90", "sm_80", "sm_52", "%tid.x", "%ntid.x",
	"%ctaid.x", "%nctaid.x", "%laneid", "%warpid", "%clock", "%r1", "%rd1", "%f1", "%p1",
	"@%p1", "@!%p1", "ret;", "exit;", "bra.uni", "{", "}", "[", "]", "(", ")", ";", ",",
	"<100>", "0f3F800000", "0d3FF0000000000000", "$L__BB0_1:", "param0", "_Z1kPf",
	"rfsim.acquire", "rfsim.release", "rfsim.prefetch",
};

static const char *const sweep_words[] = {
	"name", "workloads", "configs", "size", "set", "axis", "variant", "all", "small",
	"default", "large", "..", "*=", " = ", ", ", "#", "\n",
};

static void dict(const char *target, const char *out, int nfile, char **files)
{
	static const char *const keys[] = {
#define CI(f, k, ...) k,
#define CF(f, k, ...) k,
#define CE(f, k, ...) k,
#define CB(f, k, ...) k,
#define CS(f, k, ...) k,
#include "base/config.def"
#undef CI
#undef CF
#undef CE
#undef CB
#undef CS
	};
	static const char *const ops[] = {
#define X(id, name, ...) name,
#include "ptx/ops.def"
#undef X
	};
	FILE *f = fopen(out, "w");
	if (!f) perror(out), exit(1);
	if (!strcmp(target, "ptx")) {
		words(f, ops, sizeof ops / sizeof ops[0]);
		words(f, ptx_words, sizeof ptx_words / sizeof ptx_words[0]);
	} else {
		words(f, keys, sizeof keys / sizeof keys[0]);
		word(f, "include", 7);
	}
	if (!strcmp(target, "sweep")) {
		words(f, sweep_words, sizeof sweep_words / sizeof sweep_words[0]);
		for (int i = 0; i < nfile; i++) {      /* base names without the extension */
			const char *b = strrchr(files[i], '/');
			b = b ? b + 1 : files[i];
			word(f, b, strcspn(b, "."));
		}
	}
	if (fclose(f)) perror(out), exit(1);
}

int main(int argc, char **argv)
{
	const char *usage = "usage: seeds ptx|config|sweep|fatbin OUTDIR [FILE...]\n"
	                    "       seeds dict ptx|config|sweep OUT [FILE...]\n";
	if (argc < 3) return fputs(usage, stderr), 2;
	if (!strcmp(argv[1], "ptx")) ptxs(argv[2], argc - 3, argv + 3);
	else if (!strcmp(argv[1], "config")) configs(argv[2], argc - 3, argv + 3);
	else if (!strcmp(argv[1], "sweep")) sweeps(argv[2]);
	else if (!strcmp(argv[1], "fatbin")) fatbins(argv[2], argc - 3, argv + 3);
	else if (!strcmp(argv[1], "dict") && argc >= 4) dict(argv[2], argv[3], argc - 4, argv + 4);
	else return fputs(usage, stderr), 2;
	return 0;
}
