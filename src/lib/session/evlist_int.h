/* SPDX-License-Identifier: MIT */
/* The event list's insides, shared by evlist*.c. */
#ifndef PD_EVLIST_INT_H
#define PD_EVLIST_INT_H

#include "lib/session/evlist.h"

struct pd_session;

/*
 * Name the events (evlist_names.c): EVENT_UPDATE records kept by a pipe's
 * metadata walk, EVENT_DESC, the tracing formats, and last, events the
 * file names nowhere, from their attr.
 */
void evlist_name_events(struct pd_session *s);

#endif
