/* SPDX-License-Identifier: MIT */
/*
 * A print fmt compiled by tp_fast.c and printed by tp_fast_print.c: a
 * program of literals and conversions, each conversion with its argument
 * as a small tree of nodes (libtraceevent's print args, in the subset
 * perfdump evaluates itself).
 */
#ifndef PD_TP_FAST_H
#define PD_TP_FAST_H

#include <stdbool.h>
#include <stdint.h>

enum nkind {
	N_ATOM,
	N_FIELD,
	N_OP,
	N_TERN,
	N_DLEN,
	N_LIT,
	N_CHARS,
	N_STR,
	N_FLAGS,
	N_SYMBOL
};

struct flagsym {
	long long val; /* eval_flag(): -1 when not a number it knows */
	const char *str;
};

struct node {
	uint8_t kind;
	char op[3];
	uint64_t v;	    /* N_ATOM */
	const char *s;	    /* N_LIT; N_FLAGS delimiter */
	uint32_t off, size; /* N_FIELD, N_CHARS, N_STR, N_DLEN */
	uint32_t field;	    /* N_CHARS, N_STR: index in the event's fields */
	bool rel;	    /* N_STR: __rel_loc */
	struct node *a, *b, *c; /* operands; N_TERN: cond, then, else */
	struct flagsym *fs;
	uint32_t nfs;
};

enum { S_LIT, S_NUM, S_STR };

struct seg {
	uint8_t kind;
	char conv;	 /* d i u x X o s */
	int8_t ls;	 /* -2 hh, -1 h, 0, 1 l, 2 ll */
	bool plain;	 /* formatted here: flags - and 0 and a width at most */
	bool left, zero; /* the - and 0 flags */
	uint8_t width;	 /* 0: none */
	char spec[32];
	const char *lit;
	uint32_t litlen;
	struct node *arg;
};

struct prog {
	struct seg *v;
	uint32_t n;
	uint32_t nstr; /* S_STR segments: a sample's spans, at most */
};

#endif
