// SPDX-License-Identifier: MIT
/* The event model's own operations (see evsel.h). */
#include "lib/format/evsel.h"

#include <stdarg.h>
#include <stdio.h>

void pd_evsel_name(struct pd_evsel *ev, const char *from, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ev->name, sizeof(ev->name), fmt, ap);
	va_end(ap);
	ev->name_from = from;
}
