/* SPDX-License-Identifier: MIT */
/* The input layer's insides (input.c, input_spool.c); see input.h. */
#ifndef PD_INPUT_INT_H
#define PD_INPUT_INT_H

#include "lib/io/input.h"

/*
 * Read len bytes of in's descriptor (fewer only at its end), counted; at
 * offset off, or at the current position when off < 0.  `some`: return
 * once a byte has come.
 */
ssize_t input_read_fd(struct pd_input *in, void *buf, size_t len, off_t off,
		      bool some);
/*
 * Read a stream forward: the sniffed bytes, then the descriptor, or the
 * decompressed bytes of a compressed input.
 */
ssize_t input_read_stream(struct pd_input *in, void *buf, size_t len,
			  bool some);
/* Bytes are there to read without waiting for the stream's writer. */
bool input_pending(const struct pd_input *in);
/* Free a compressed input's decoder. */
void unz_close(struct pd_input *in);

#endif
