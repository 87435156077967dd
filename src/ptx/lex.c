/*
 * lex.c -- the PTX tokenizer; see lex.h for what a token is.
 *
 * Lexical rules (PTX ISA 9.0, section 4): identifiers are
 * [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]*; comments are // and
 * C-style; integer literals are decimal, hex (0x), octal (leading 0) or
 * binary (0b), with an optional U suffix; 0fXXXXXXXX and
 * 0dXXXXXXXXXXXXXXXX spell float bit patterns and a decimal literal with
 * a point or an exponent is a double.  Whitespace is insignificant, which
 * is what lets minified PTX (a fatbin's, with newlines dropped) parse:
 * even .loc and .file are parsed by their shape, not by line ends.
 *
 * Errors (an unterminated comment or string, a malformed number, a stray
 * character) become a TK_ERR token; the parser reports it with the
 * token's position.  NUL bytes that run to the end of the text (the
 * padding of PTX pulled out of a fatbin) end it; a NUL elsewhere is an
 * error.
 */
#include "ptx/lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_follow(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }

static int hexval(int c)
{
	if (is_digit(c)) return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

void lex_init(Lexer *lx, const char *src, size_t len)
{
	memset(lx, 0, sizeof *lx);
	lx->src = lx->p = lx->bol = src;
	lx->end = src + len;
	if (len >= 3 && !memcmp(src, "\xEF\xBB\xBF", 3)) lx->p = lx->bol = src + 3;   /* BOM */
	lx->line = 1;
	lex_next(lx);
}

int lex_is(const Tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->len == n && !memcmp(t->s, word, n);
}

static int fail(Lexer *lx, const char *msg)
{
	snprintf(lx->err, sizeof lx->err, "%s", msg);
	lx->tok.kind = TK_ERR;
	return TK_ERR;
}

/* skips whitespace and comments; 0 on an unterminated comment */
static int skip_space(Lexer *lx)
{
	const char *p = lx->p, *end = lx->end;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' ||
		                   *p == '\f' || *p == '\v')) {
			if (*p == '\n') lx->line++, lx->bol = p + 1;
			p++;
		}
		if (p < end && *p == 0) {              /* NUL padding ends the text (fatbins) */
			const char *q = p;
			while (q < end && *q == 0) q++;
			if (q == end) p = end;
			lx->p = p;
			return 1;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n') p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *start = p, *bol = lx->bol;
			uint32_t line = lx->line;
			for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p == '\n') lx->line++, lx->bol = p + 1;
			if (p + 1 >= end) {
				lx->p = start, lx->line = line, lx->bol = bol;
				return 0;
			}
			p += 2;
		} else {
			lx->p = p;
			return 1;
		}
	}
}

/* a dotted segment body: [A-Za-z0-9_$]+ with `::word` continuations */
static const char *segment(const char *p, const char *end)
{
	for (;;) {
		while (p < end && is_follow(*p)) p++;
		if (p + 2 < end && p[0] == ':' && p[1] == ':' && is_follow(p[2])) p += 2;
		else return p;
	}
}

static const char *ident_end(const char *p, const char *end)
{
	p++;
	while (p < end && is_follow(*p)) p++;
	while (p + 1 < end && *p == '.' && is_follow(p[1])) p = segment(p + 1, end);
	return p;
}

/* integer digits in base; sets *ovf on overflow; returns the end */
static const char *digits(const char *p, const char *end, int base, uint64_t *v, int *ovf)
{
	for (; p < end; p++) {
		int d = hexval(*p);
		if (d < 0 || d >= base) break;
		if (*v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) *ovf = 1;
		*v = *v * (uint64_t)base + (uint64_t)d;
	}
	return p;
}

static int lex_decimal_float(Lexer *lx, const char *p, const char *end)
{
	const char *q = p;
	while (q < end && is_digit(*q)) q++;
	if (q < end && *q == '.') {
		q++;
		while (q < end && is_digit(*q)) q++;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		if (e < end && (*e == '+' || *e == '-')) e++;
		if (e >= end || !is_digit(*e)) return fail(lx, "bad floating-point literal");
		while (e < end && is_digit(*e)) e++;
		q = e;
	}
	char buf[80];
	if (q - p >= (long)sizeof buf) return fail(lx, "floating-point literal too long");
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = 0;
	double d = strtod(buf, NULL);
	Tok *t = &lx->tok;
	t->kind = TK_FLT, t->fbits = 64, t->decimal = 1, t->dval = d;
	memcpy(&t->val, &d, 8);
	lx->p = q;
	return TK_FLT;
}

static int lex_number(Lexer *lx)
{
	const char *p = lx->p, *end = lx->end, *q = p + 1;
	Tok *t = &lx->tok;
	uint64_t v = 0;
	int ovf = 0;
	char c1 = p + 1 < end ? p[1] : 0;
	if (p[0] == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
		int nd = (c1 == 'f' || c1 == 'F') ? 8 : 16;
		q = digits(p + 2, end, 16, &v, &ovf);
		if (q - (p + 2) != nd) return fail(lx, "bad float bit pattern (0f needs 8 hex "
		                                       "digits, 0d needs 16)");
		t->kind = TK_FLT, t->fbits = (uint8_t)(nd * 4), t->val = v;
	} else if (p[0] == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B')) {
		q = digits(p + 2, end, (c1 == 'x' || c1 == 'X') ? 16 : 2, &v, &ovf);
		if (q == p + 2) return fail(lx, "bad number");
		t->kind = TK_INT, t->val = v, t->hex = (c1 == 'x' || c1 == 'X');
	} else {
		q = p;
		while (q < end && is_digit(*q)) q++;
		if (q < end && (*q == '.' || *q == 'e' || *q == 'E'))
			return lex_decimal_float(lx, p, end);
		q = digits(p, end, p[0] == '0' ? 8 : 10, &v, &ovf);
		if (q < end && is_digit(*q)) return fail(lx, "bad octal number");
		t->kind = TK_INT, t->val = v;
	}
	if (ovf) return fail(lx, "integer literal out of range");
	if (t->kind == TK_INT && q < end && *q == 'U') q++;
	if (q < end && is_follow(*q)) return fail(lx, "bad number");
	lx->p = q;
	return t->kind;
}

static int lex_string(Lexer *lx)
{
	const char *q = lx->p + 1;
	while (q < lx->end && *q != '"' && *q != '\n') q += (*q == '\\' && q + 1 < lx->end) ? 2 : 1;
	if (q >= lx->end || *q != '"') return fail(lx, "unterminated string");
	lx->p = q + 1;
	return lx->tok.kind = TK_STR;
}

static int lex_token(Lexer *lx)
{
	const char *p = lx->p, *end = lx->end;
	int c = (unsigned char)*p;
	if (is_alpha(c) || c == '_' || c == '$' || c == '%') {
		lx->p = ident_end(p, end);
		return lx->tok.kind = TK_IDENT;
	}
	if (c == '.' && p + 1 < end && is_follow(p[1])) {
		lx->p = segment(p + 1, end);
		return lx->tok.kind = TK_DIR;
	}
	if (is_digit(c)) return lex_number(lx);
	if (c == '"') return lex_string(lx);
	if (strchr(";,:[]{}()<>+-!|@=*/~&^", c) && c) {
		lx->p = p + 1;
		return lx->tok.kind = c;
	}
	char msg[64];
	if (c >= 32 && c < 127) snprintf(msg, sizeof msg, "unexpected character '%c'", c);
	else snprintf(msg, sizeof msg, "unexpected byte 0x%02x", c);
	return fail(lx, msg);
}

void lex_next(Lexer *lx)
{
	Tok *t = &lx->tok;
	memset(t, 0, sizeof *t);
	int ok = skip_space(lx);
	t->s = lx->p;
	t->line = lx->line;
	t->col = (uint32_t)(lx->p - lx->bol) + 1;
	if (!ok) {
		fail(lx, "unterminated comment");
	} else if (lx->p >= lx->end) {
		t->kind = TK_EOF;
	} else if (lex_token(lx) == TK_ERR) {
		lx->p = lx->end;                 /* nothing sensible follows an error */
		t->len = 1;
		return;
	}
	t->len = (uint32_t)(lx->p - t->s);
}

Tok lex_peek(const Lexer *lx)
{
	Lexer copy = *lx;
	lex_next(&copy);
	return copy.tok;
}
