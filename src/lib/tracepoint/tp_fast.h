/* SPDX-License-Identifier: MIT */
/*
 * A print fmt compiled (tp_parse.c, tp_fast.c) and printed
 * (tp_fast_print.c): a program of literals and conversions, each
 * conversion with its argument as a small tree of nodes, libtraceevent's
 * print args (event-parse.c, struct tep_print_arg) in the subset perfdump
 * parses and evaluates itself.
 */
#ifndef PD_TP_FAST_H
#define PD_TP_FAST_H

#include <stdbool.h>
#include <stdint.h>

enum nkind {
	N_ATOM,	  /* a number, or a name (s): strtoull of its text */
	N_FIELD,  /* REC->name: field, off, size */
	N_OP,	  /* op a b (a NULL: unary) */
	N_TERN,	  /* a ? b : c */
	N_DLEN,	  /* __get_dynamic_array_len(field) */
	N_LIT,	  /* a string literal s */
	N_CHARS,  /* %s of a field: its bytes up to a NUL */
	N_STR,	  /* __get_str(field) */
	N_FLAGS,  /* __print_flags(a, s, fs) */
	N_SYMBOL, /* __print_symbolic(a, fs) */
	N_DARR,	  /* __get_dynamic_array(field): where its data is */
	N_CAST,	  /* (type)a: the value masked by v */
	N_INDEX,  /* a[b]: an element of a field or dynamic array */
	N_HEX,	  /* __print_hex(a, b), __print_hex_str (op "s") */
	N_IARR,	  /* __print_array(a, count b, element size c) */
};

struct flagsym {
	long long val; /* eval_flag(): -1 when not a number it knows */
	const char *str;
};

struct node {
	uint8_t kind;
	char op[3];
	uint64_t v;		/* N_ATOM, N_LIT: the value; N_CAST: mask */
	const char *s;		/* N_ATOM, N_LIT; N_FLAGS delimiter */
	uint32_t off, size;	/* N_FIELD, N_CHARS, N_STR, N_DLEN, N_DARR */
	uint32_t elem;		/* N_FIELD, N_DARR: bytes of an element */
	uint32_t field;		/* the field's index in the event's fields */
	bool rel;		/* N_STR, N_DLEN, N_DARR: __rel_loc */
	struct node *a, *b, *c; /* operands; N_TERN: cond, then, else */
	struct flagsym *fs;
	uint32_t nfs;
};

enum { S_LIT, S_NUM, S_STR, S_PTR };

struct seg {
	uint8_t kind;
	char conv;	 /* d i u x X o s; S_PTR: p, or s S f F (%ps ...) */
	int8_t ls;	 /* -2 hh, -1 h, 0, 1 l, 2 ll */
	bool plain;	 /* formatted here: flags - and 0 and a width at most */
	bool left, zero; /* the - and 0 flags */
	uint8_t width;	 /* 0: none */
	char spec[32];
	const char *lit;
	uint32_t litlen;
	struct node *arg;
};

#define PD_TP_MAX_SEGS 64 /* literals and conversions of a print fmt */

struct prog {
	struct seg *v;
	uint32_t n;
	uint32_t nstr; /* S_STR segments: a sample's spans, at most */
};

#endif
