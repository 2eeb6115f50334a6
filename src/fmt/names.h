/* SPDX-License-Identifier: MIT */
/*
 * Name tables for perf_event_attr values, shared by the attrs command and
 * the EVENT_DESC feature (include/uapi/linux/perf_event.h).  The type and
 * event names (perf's, tools/perf/util/evsel.c) are the parser's, which
 * names events by them: src/lib/format/evname.h.
 */
#ifndef PD_NAMES_H
#define PD_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "lib/format/evname.h"
#include "lib/base/util.h"

struct pd_session;

/* Bit names for emit_flags(): names[i] names bit i. */
extern const char *const pd_sample_type_names[];
extern const size_t pd_nsample_type_names;
extern const char *const pd_read_format_names[];
extern const size_t pd_nread_format_names;
/* The attr bit-field; precise_ip's two bits are precise_ip(1), (2). */
extern const char *const pd_attr_flag_names[];
extern const size_t pd_nattr_flag_names;
extern const char *const pd_branch_sample_type_names[];
extern const size_t pd_nbranch_sample_type_names;
extern const char *const pd_aux_action_names[];
extern const size_t pd_naux_action_names;
/* bp_type: HW_BREAKPOINT_R, _W, _X */
extern const char *const pd_bp_type_names[];
extern const size_t pd_nbp_type_names;

/* "EM_X86_64": an ELF e_machine by its <elf.h> name; NULL if unknown. */
const char *pd_e_machine_name(uint32_t em);
struct pd_evsel;
/* An event's name as perfdump shows it: its name, or "attrN". */
const char *pd_evsel_label(const struct pd_evsel *ev, char *buf, size_t len);

/* "CLOCK_MONOTONIC", ...; NULL if unknown. */
const char *pd_clockid_name(int64_t id);

/*
 * header.misc's cpumode (PERF_RECORD_MISC_CPUMODE_MASK values,
 * include/uapi/linux/perf_event.h): "kernel", "user", ..., or NULL for
 * the values nobody defines (6, 7).
 */
const char *pd_cpumode_name(unsigned cpumode);

/* precise_ip 0..3: "arbitrary skid" ... "must have zero skid". */
const char *pd_precise_ip_meaning(unsigned v);

/* The attr.size layout: "VER8", "VER9 (pending)", "VER8 + 24 bytes". */
const char *pd_attr_size_name(uint32_t size, char *buf, size_t len);

#endif
