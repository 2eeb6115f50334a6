// SPDX-License-Identifier: MIT
/*
 * Event names from perf_event_attr (see evname.h).  Tables checked against
 * include/uapi/linux/perf_event.h (torvalds/linux 00093b31); names as
 * perf 6.1 gives them: tools/perf/util/evsel.c evsel__name,
 * evsel__hw_name, evsel__sw_name, evsel__hw_cache_name, evsel__raw_name,
 * evsel__bp_name, evsel__add_modifiers, and
 * tools/perf/arch/x86/util/evsel.c arch_evsel__hw_name.
 */
#include "lib/format/evname.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/base/util.h"

/* enum perf_type_id */
const char *pd_attr_type_name(uint32_t type)
{
	static const char *const names[] = {
		"HARDWARE", "SOFTWARE", "TRACEPOINT",
		"HW_CACHE", "RAW",	"BREAKPOINT",
	};

	return type < PD_NELEMS(names) ? names[type] : NULL;
}

/* enum perf_hw_id, named as perf's evsel__hw_names[] */
const char *pd_hw_event_name(uint64_t id)
{
	static const char *const names[] = {
		"cycles",
		"instructions",
		"cache-references",
		"cache-misses",
		"branches",
		"branch-misses",
		"bus-cycles",
		"stalled-cycles-frontend",
		"stalled-cycles-backend",
		"ref-cycles",
	};

	return id < PD_NELEMS(names) ? names[id] : NULL;
}

/* enum perf_sw_ids, named as perf's evsel__sw_names[] */
const char *pd_sw_event_name(uint64_t id)
{
	static const char *const names[] = {
		"cpu-clock",	    "task-clock",
		"page-faults",	    "context-switches",
		"cpu-migrations",   "minor-faults",
		"major-faults",	    "alignment-faults",
		"emulation-faults", "dummy",
		"bpf-output",	    "cgroup-switches",
	};

	return id < PD_NELEMS(names) ? names[id] : NULL;
}

/*
 * HW_CACHE config 0x00DDCCBB: cache BB, op CC, result DD, named as perf's
 * __evsel__hw_cache_type_op_res_name(): "L1-dcache-load-misses" for a
 * miss, "L1-dcache-loads" for an access.
 */
const char *pd_hw_cache_name(uint64_t config, char *buf, size_t len)
{
	static const char *const cache[] = {
		"L1-dcache", "L1-icache", "LLC",  "dTLB",
		"iTLB",	     "branch",	  "node",
	};
	static const char *const op[] = {"load", "store", "prefetch"};
	static const char *const ops[] = {"loads", "stores", "prefetches"};
	unsigned c = config & 0xff, o = config >> 8 & 0xff,
		 r = config >> 16 & 0xff;

	if ((config & 0xff000000) || c >= PD_NELEMS(cache) ||
	    o >= PD_NELEMS(op) || r > 1)
		return NULL;
	if (r)
		snprintf(buf, len, "%s-%s-misses", cache[c], op[o]);
	else
		snprintf(buf, len, "%s-%s", cache[c], ops[o]);
	return buf;
}

/* perf's __evsel__bp_name: "mem:0xADDR:rwx" (bp_addr is config1) */
static const char *bp_name(const struct pd_attr *a, char *buf, size_t len)
{
	if (!attr_has(a, 56, 8))
		return NULL;
	snprintf(buf, len, "mem:0x%" PRIx64 ":%s%s%s", a->config1,
		 a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
		 a->bp_type & 4 ? "x" : "");
	return buf;
}

const char *pd_attr_config_name(const struct pd_attr *a, char *buf, size_t len)
{
	uint64_t low = a->config & 0xffffffffULL;

	if (!attr_has(a, 8, 8))
		return NULL;
	switch (a->type) {
	case PD_TYPE_HARDWARE: return pd_hw_event_name(low);
	case PD_TYPE_SOFTWARE: return pd_sw_event_name(a->config);
	case PD_TYPE_HW_CACHE: return pd_hw_cache_name(low, buf, len);
	case PD_TYPE_RAW:
		snprintf(buf, len, "raw 0x%" PRIx64, a->config);
		return buf;
	case PD_TYPE_BREAKPOINT: return bp_name(a, buf, len);
	}
	return NULL;
}

/*
 * perf 6.1's evsel__add_modifiers: the privilege levels counted when
 * some are excluded ("k", "u", "h"), "p" per precise_ip level, and "H"
 * (host) / "G" (guest) when exclude_host is set or exclude_guest equals
 * what perf's parser defaults it to (set with a privilege modifier or
 * precise_ip, clear otherwise: a plain event counting in guests too is
 * "dummy:HG").  Newer perf prints H/G only for exclude_host or
 * exclude_guest; perfdump names as perf 6.1, which its fixtures were
 * recorded and are checked with, does.
 */
static void modifiers(const struct pd_attr *a, char *m)
{
	uint64_t f = a->flags;
	const uint64_t priv = PD_ATTR_EXCLUDE_KERNEL | PD_ATTR_EXCLUDE_USER |
			      PD_ATTR_EXCLUDE_HV;
	bool guest_default = false;
	unsigned precise = attr_precise_ip(a);

	if (f & priv) {
		if (!(f & PD_ATTR_EXCLUDE_KERNEL))
			*m++ = 'k';
		if (!(f & PD_ATTR_EXCLUDE_USER))
			*m++ = 'u';
		if (!(f & PD_ATTR_EXCLUDE_HV))
			*m++ = 'h';
		guest_default = true;
	}
	for (unsigned i = 0; i < precise; i++)
		*m++ = 'p';
	if (precise)
		guest_default = true;
	if ((f & PD_ATTR_EXCLUDE_HOST) ||
	    !!(f & PD_ATTR_EXCLUDE_GUEST) == guest_default) {
		if (!(f & PD_ATTR_EXCLUDE_HOST))
			*m++ = 'H';
		if (!(f & PD_ATTR_EXCLUDE_GUEST))
			*m++ = 'G';
	}
	*m = 0;
}

/*
 * An event's name from its attr (evname.h).  The fixed types as perf names them,
 * modifiers after a colon; a hybrid hardware event (config bits 32-63:
 * the PMU type) as "PMU/cycles/", PMU from PMU_MAPPINGS or perf's "cpu".
 * A dynamic PMU type, which perf calls "unknown attr type: N", in perf's
 * event syntax, modifiers after the slash: "msr/config=0x0/" with the
 * PMU_MAPPINGS name, else the type number ("9/config=0x0/").  Unnamed:
 * an attr too short for type and config, a tracepoint no TRACING_DATA
 * format names (perf: "unknown tracepoint") and a config perf has no
 * name for ("unknown-hardware", "unknown-software", a bad cache config).
 */
const char *pd_attr_event_name(const struct pd_attr *a, pd_pmu_name_fn *pmu_of,
			       void *ctx, char *buf, size_t len)
{
	char base[160], pmu[64], mod[16];
	const char *n = pd_attr_config_name(a, base, sizeof(base));
	uint32_t ext = (uint32_t)(a->config >> PD_PMU_TYPE_SHIFT);
	const char *p;

	if (!attr_has(a, 8, 8))
		return NULL;
	modifiers(a, mod);
	if (a->type >= PD_TYPE_MAX) {
		if ((p = pmu_of(ctx, a->type, pmu, sizeof(pmu))))
			snprintf(buf, len, "%s/config=0x%" PRIx64 "/%s", p,
				 a->config, mod);
		else
			snprintf(buf, len,
				 "%" PRIu32 "/config=0x%" PRIx64 "/%s", a->type,
				 a->config, mod);
		return buf;
	}
	if (!n)
		return NULL;
	if (a->type == PD_TYPE_HARDWARE && ext) {
		p = pmu_of(ctx, ext, pmu, sizeof(pmu));
		snprintf(buf, len, "%s/%s/%s%s", p ? p : "cpu", n,
			 *mod ? ":" : "", mod);
		return buf;
	}
	snprintf(buf, len, "%s%s%s", n, *mod ? ":" : "", mod);
	return buf;
}
