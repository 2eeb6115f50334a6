/* SPDX-License-Identifier: MIT */
/* Small helpers for every folder (src/lib, src/fmt, the commands). */
#ifndef PD_UTIL_H
#define PD_UTIL_H

/* The number of elements of an array (not a pointer). */
#define PD_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

#endif
