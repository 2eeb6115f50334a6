// SPDX-License-Identifier: MIT
/* The value of a number option (--top, --skip, --cpu...): one rule. */
#include <errno.h>
#include <stdlib.h>

#include "perfdump.h"

bool opt_u64(const char *arg, int base, uint64_t max, uint64_t *v)
{
	char *end;

	if (*arg < '0' || *arg > '9') /* no blank, sign or empty value */
		return false;
	errno = 0;
	*v = strtoull(arg, &end, base);
	return !errno && !*end && *v <= max;
}

int opt_number(const char *where, const char *arg, int base, uint64_t max,
	       const char *want, uint64_t *v)
{
	if (opt_u64(arg, base, max, v))
		return 0;
	usage_error("%s: '%s' is not %s", where, arg, want);
	return -1;
}
