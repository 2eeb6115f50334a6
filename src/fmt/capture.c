// SPDX-License-Identifier: MIT
/* A formatter's JSON, in memory, read back as a tree (capture.h). */
#include "fmt/capture.h"

#include <stdio.h>
#include <stdlib.h>

struct pd_jnode *emit_capture(struct arena *a, struct redactor *red,
			      emit_capture_fn *fn, void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct emitter *e;
	struct pd_jnode *t = NULL;
	bool ok;

	if (!f)
		return NULL;
	e = emit_new(f, EMIT_JSON, false);
	if (e) {
		emit_set_redact(e, red);
		fn(e, arg);
	}
	ok = e && emit_free(e);
	if (fclose(f) == 0 && ok && buf)
		t = pd_jtree_parse(a, buf, len);
	free(buf);
	return t;
}
