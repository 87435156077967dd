/*
 * parse.h -- the parser's shared state (private to parse*.c).
 *
 * parse.c reads the module level, parse_func.c functions and bodies,
 * parse_decl.c variable and parameter declarations with their
 * initializers, parse_ins.c instructions and operands, parse_check.c
 * their operands' kinds and types.
 *
 * Errors longjmp to ptx_parse(), which frees everything: every buffer the
 * parser owns is reachable from Parser.  Names are resolved through one
 * scope table indexed by interned string id: head[id] is the innermost
 * binding of that name, each binding links to the one it shadows, and
 * closing a scope pops the bindings made since it opened.  Module scope is
 * depth 0, a function's parameters depth 1, its body depth 2, and each
 * nested `{ }` block one more.
 */
#ifndef RFSIM_PTX_PARSE_H
#define RFSIM_PTX_PARSE_H

#include <setjmp.h>

#include "ptx/ir.h"
#include "ptx/lex.h"

enum { B_SYM, B_REG, B_RANGE };  /* Bind.kind */

typedef struct Bind {
	uint32_t name;           /* string id */
	uint8_t kind;            /* B_* */
	int32_t val;             /* symbol id, register id, or RegDecl index */
	int32_t prev;            /* binding it shadows, -1 */
	int32_t depth;           /* scope depth it was made at */
} Bind;

typedef struct LabRef {      /* a branch target, resolved when the function ends */
	uint32_t name;           /* string id */
	int32_t slot;            /* block it appears in: 0 body, SCOPE_BEGIN index + 1 */
	uint32_t line, col;
} LabRef;

typedef struct InitElem {    /* one scalar of an initializer, before layout */
	uint64_t bits;           /* value in the element type */
	int32_t sym;             /* >= 0: an address (sym [+ addend]) */
	uint8_t generic;         /* generic(sym) */
	int8_t byte;             /* mask form 0xFF..(addr): byte index, else -1 */
	int64_t addend;
	Tok at;                  /* for messages */
} InitElem;

typedef struct Item {        /* a module-scope declaration, in file order */
	int32_t sym;
	uint8_t primary;         /* 1: a variable, or the function's body/only declaration */
	uint32_t attr;           /* linkage written on it */
} Item;

enum { MODINDEX = 512 };

typedef struct Parser {
	Lexer lx;
	OpIndex ops;                       /* mnemonic -> Op (pins_init) */
	int16_t mods[MODINDEX];            /* modifier name -> its definition (parse_ins.c) */
	Module *m;
	const char *file;
	jmp_buf fail;
	/* module-level growing arrays (copied into the arena at the end) */
	size_t capsym, capfunc, capfile;
	Item *items;   size_t nitem, capitem;
	Alias *aliases; size_t capalias;
	/* scopes */
	int32_t *head;  size_t caphead;    /* string id -> binding + 1 */
	Bind *binds;    size_t nbind, capbind;
	int32_t depth;
	/* the function being parsed (fi < 0: none) */
	int32_t fi;
	Ins *ins;        size_t nins, capins;
	Label *labels;   size_t nlabel, caplabel;
	int32_t *labslot, *labprev;         /* per label: its block slot; same-name label */
	LabRef *labref;  size_t nlabref, caplabref;
	int32_t *labmap; size_t caplabmap;  /* string id -> last label of that name + 1 */
	int32_t *bparent; size_t capbparent; /* block slot -> enclosing slot */
	Operand *vops;   size_t nvop, capvop;
	RegDecl *rdecl;  size_t nrdecl, caprdecl;
	uint8_t *regtype; size_t nreg, capreg;
	int32_t *locals; size_t nlocal, caplocal;
	Pragma *bpragmas; size_t nbpragma, capbpragma;
	int32_t *blocks; size_t nblock, capblock;   /* open { }: SCOPE_BEGIN index */
	/* scratch */
	char *sbuf;      size_t capsbuf;
	InitElem *ielems; size_t nielem, capielem;
	Sym *tparams;    size_t captparam;      /* a function header's parameters */
	Tok *tnames;     size_t captname;
} Parser;

/* parse_tc.c: cp.async and wmma */
/* the Op of a cp.* or wmma.* mnemonic (refusing the forms rfsim lacks), with
 * *used = the length of its fixed part; -1 for any other mnemonic */
int ptc_op(Parser *p, const Tok *t, size_t *used);
/* one modifier s[0..n) of such an instruction; *st counts what was seen, the
 * `::` hints of cp.async are appended to hints[*nhints..cap) */
void ptc_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n, int *st,
                  char *hints, size_t *nhints, size_t cap);
/* its operands and modifiers against the PTX ISA's rules (st: ptc_modifier's) */
void ptc_check(Parser *p, const Tok *t, Ins *in, int st);

/* parse_mbar.c: mbarrier.* and cp.async.mbarrier.arrive */
/* the Op of an mbarrier.* mnemonic (refusing unknown forms), *used its fixed
 * part's length; -1 for any other mnemonic */
int pmb_op(Parser *p, const Tok *t, size_t *used);
void pmb_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n, char *hints,
                  size_t *nhints, size_t cap);
void pmb_check(Parser *p, const Tok *t, const Ins *in);   /* after the operands */

/* parse_tex.c: tex, tld4, suld, sust on texture and surface objects */
void ptex_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n);
void ptex_check(Parser *p, const Tok *t, const Ins *in);   /* after the operands */

/* parse.c */
__attribute__((noreturn, format(printf, 3, 4)))
void p_error_at(Parser *p, const Tok *t, const char *fmt, ...);
#define p_error(p, ...) p_error_at((p), &(p)->lx.tok, __VA_ARGS__)
void p_next(Parser *p);
int p_accept(Parser *p, int kind);                  /* consume if kind */
void p_expect(Parser *p, int kind, const char *what);
int p_is_dir(const Parser *p, const char *word);    /* current token is .word */
const char *p_tok_desc(const Tok *t, char *buf, size_t n);   /* 'text' for messages */
uint32_t p_intern_tok(Parser *p, const Tok *t);
int64_t p_int(Parser *p, const char *what);         /* [-]integer constant */
int32_t p_small_int(Parser *p, const char *what);   /* 0 .. INT32_MAX */
int32_t p_new_sym(Parser *p, const Tok *name, SymKind kind, Space sp);
void p_bind(Parser *p, const Tok *name, int kind, int32_t val);
const Bind *p_lookup(Parser *p, const char *s, size_t len);
void p_scope_pop(Parser *p, int32_t depth);         /* drop bindings deeper than depth */
int32_t p_scope_here(const Parser *p);               /* Sym.scope for a new local */
void p_add_item(Parser *p, int32_t sym, int primary, uint32_t attr);
void p_loc(Parser *p);                               /* .loc ... (dropped) */
uint32_t p_pragma(Parser *p, uint32_t prev);        /* .pragma "s"; appended to prev */

/* parse_func.c */
void p_function(Parser *p, uint32_t attr);
void p_call_proto(Parser *p, const Tok *name);
Ins *p_emit(Parser *p, const Tok *at);              /* a zeroed, unguarded Ins */
int32_t p_label_ref(Parser *p, const Tok *t);       /* OPK_LABEL reg, resolved later */

/* parse_decl.c */
uint32_t p_linkage(Parser *p);                      /* .visible .extern .weak .common */
void p_var_decl(Parser *p, Space sp, uint32_t attr, int at_module);
void p_param(Parser *p, Sym *out, Tok *name);      /* one .param of a signature */
void p_reg_decl(Parser *p);

/* parse_ins.c */
void p_instruction(Parser *p);
void pins_init(Parser *p);      /* the mnemonic and modifier indexes, once per parser */

/* parse_check.c: in's operands, counted already, against its form (ops.def):
 * kinds, types, vectors; opat[k] is where operand k starts */
void pchk_operands(Parser *p, const Tok *at, const Ins *in, const Tok *opat);

#endif
