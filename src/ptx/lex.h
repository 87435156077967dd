/*
 * lex.h -- the PTX tokenizer (private to src/ptx).
 *
 * Tokens are views into the source text: nothing is copied or allocated.
 * An identifier swallows the dotted suffixes glued to it, so an
 * instruction's whole mnemonic (`ld.global.nc.L1::no_allocate.v4.f32`) and
 * a special register with its component (`%tid.x`) are one TK_IDENT,
 * while a directive or a declaration's type is one TK_DIR per dotted
 * segment (`.ptr.global.align` is three).  Punctuation tokens are their
 * own character.  The lexer reads only [src, src+len): the text need not
 * be NUL-terminated.
 */
#ifndef RFSIM_PTX_LEX_H
#define RFSIM_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

typedef enum TokKind {
	TK_EOF = 0,          /* punctuation tokens use their ASCII code (1..127) */
	TK_IDENT = 256,      /* name, %reg, $label, mnemonic with its .modifiers */
	TK_DIR,              /* one `.word` (may hold `::`, e.g. .shared::cluster) */
	TK_INT,              /* integer literal; val holds it modulo 2^64 */
	TK_FLT,              /* float literal; val holds its bits */
	TK_STR,              /* "string"; s/len include the quotes */
	TK_ERR,              /* lexical error; Lexer.err says which */
} TokKind;

typedef struct Tok {
	int kind;                /* TokKind or a punctuation character */
	const char *s;           /* lexeme */
	uint32_t len;
	uint32_t line, col;      /* 1-based */
	uint64_t val;            /* TK_INT value, TK_FLT bits */
	uint8_t fbits;           /* TK_FLT: 32 (0f...) or 64 (0d... or decimal) */
	uint8_t hex;             /* TK_INT written in hex */
	uint8_t decimal;         /* TK_FLT written in decimal (1.5, 2e3): dval */
	double dval;
} Tok;

typedef struct Lexer {
	const char *src, *p, *end;
	uint32_t line;           /* line of p */
	const char *bol;         /* start of that line */
	Tok tok;                 /* the current token */
	char err[160];           /* message of a TK_ERR token */
} Lexer;

void lex_init(Lexer *lx, const char *src, size_t len);
void lex_next(Lexer *lx);               /* advance to the next token */
Tok lex_peek(const Lexer *lx);          /* the token after the current one */
int lex_is(const Tok *t, const char *word);   /* lexeme equals word */

#endif
