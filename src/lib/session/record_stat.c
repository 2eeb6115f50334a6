// SPDX-License-Identifier: MIT
/*
 * perf stat's records (STAT_CONFIG, STAT, STAT_ROUND), the CPU maps of
 * CPU_MAP and EVENT_UPDATE, and perf sched stats'
 * SCHEDSTAT_CPU / SCHEDSTAT_DOMAIN.  Layouts checked against
 * tools/lib/perf/include/perf/event.h (struct perf_record_cpu_map_data is
 * packed: the MASK words are unaligned), tools/perf/util/cpumap.c
 * (cpu_map__from_entries/mask/range), stat.c, event.c
 * (perf_event__fprintf_stat_config) and libperf's schedstat-v15/16/17.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/format/features.h"
#include "lib/session/record_int.h"
#include "lib/session/session.h"
#include "lib/base/util.h"

/* An array of count elements of elem_size bytes, checked against c. */
static void *cur_array(struct rec_ctx *x, struct cursor *c, const char *what,
		       uint64_t count, size_t elem_size, size_t model_size)
{
	void *v;

	if (!cur_check_count(c, what, count, elem_size) || count == 0)
		return NULL;
	v = arena_calloc(x->scratch, (size_t)count, model_size);
	if (!v)
		cur_fail(c, cur_bad_code(c), what,
			 "out of memory for %llu entries",
			 (unsigned long long)count);
	return v;
}

static int cmp_cpu(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* "-1,0-3,8" from the CPUs (sorted, duplicates merged). */
static char *cpu_list(struct rec_ctx *x, int32_t *cpus, uint32_t n)
{
	size_t cap = (size_t)n * 24 + 1, len = 0;
	char *s = arena_alloc(x->scratch, cap);

	if (!s)
		return NULL;
	qsort(cpus, n, sizeof(*cpus), cmp_cpu);
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i;

		while (j + 1 < n &&
		       (cpus[j + 1] == cpus[j] ||
			(cpus[j] >= 0 && cpus[j + 1] == cpus[j] + 1)))
			j++;
		len += (size_t)snprintf(s + len, cap - len, "%s%d",
					len ? "," : "", cpus[i]);
		if (cpus[j] != cpus[i])
			len += (size_t)snprintf(s + len, cap - len, "-%d",
						cpus[j]);
		i = j + 1;
	}
	s[len] = '\0';
	return s;
}

/*
 * cpu_map_data, packed: u16 type; then
 *   CPUS:       u16 nr; u16 cpu[nr]            (0xffff = -1, "any")
 *   MASK:       u16 nr; u16 long_size; [4 pad if 8]; nr x u32/u64 words
 *   RANGE_CPUS: u8 any_cpu; u8 pad; u16 start_cpu; u16 end_cpu
 */
void rec_parse_cpu_map_data(struct rec_ctx *x, struct cursor *c,
			    struct pd_cpu_map *m)
{
	uint32_t n = 0;

	m->type = cur_u16(c, "cpu_map_data.type");
	switch (m->type) {
	case PD_CPU_MAP_CPUS:
		/* untrusted count: checked against the bytes left before use (cursor.h) */
		m->nr = cur_u16(c, "cpus.nr");
		m->cpus =
			cur_array(x, c, "cpus.cpu", m->nr, 2, sizeof(*m->cpus));
		for (uint32_t i = 0; m->cpus && i < m->nr; i++) {
			uint16_t v = cur_u16(c, "cpu");

			m->cpus[m->ncpus++] = v == 0xffff ? -1 : v;
		}
		break;
	case PD_CPU_MAP_MASK:
		/* untrusted count: checked against the bytes left before use (cursor.h) */
		m->nr = cur_u16(c, "mask.nr");
		m->long_size = cur_u16(c, "mask.long_size");
		if (!cur_ok(c))
			return;
		if (m->long_size != 4 && m->long_size != 8) {
			cur_fail(c, cur_bad_code(c), "mask.long_size",
				 "long_size %u is neither 4 nor 8",
				 m->long_size);
			return;
		}
		if (m->long_size == 8)
			cur_skip(c, "mask padding", 4);
		m->mask = cur_array(x, c, "mask", m->nr, m->long_size,
				    sizeof(*m->mask));
		for (uint32_t i = 0; m->mask && i < m->nr; i++) {
			m->mask[m->nmask] = m->long_size == 8
						    ? cur_u64(c, "mask")
						    : cur_u32(c, "mask");
			n += (uint32_t)__builtin_popcountll(
				m->mask[m->nmask++]);
		}
		if (!cur_ok(c) || !n)
			break;
		m->cpus = arena_calloc(x->scratch, n, sizeof(*m->cpus));
		for (uint32_t i = 0; m->cpus && i < m->nmask; i++)
			for (unsigned b = 0; b < m->long_size * 8u; b++)
				if (m->mask[i] >> b & 1)
					m->cpus[m->ncpus++] =
						(int32_t)(i * m->long_size *
								  8u +
							  b);
		break;
	case PD_CPU_MAP_RANGE_CPUS:
		m->any_cpu = cur_u8(c, "range.any_cpu");
		cur_skip(c, "range.pad", 1);
		m->start_cpu = cur_u16(c, "range.start_cpu");
		m->end_cpu = cur_u16(c, "range.end_cpu");
		if (!cur_ok(c))
			return;
		if (m->end_cpu < m->start_cpu) {
			cur_fail(c, cur_bad_code(c), "range",
				 "end_cpu %u is below start_cpu %u", m->end_cpu,
				 m->start_cpu);
			return;
		}
		/* untrusted range: at most 65537 CPUs (u16 bounds) */
		n = (uint32_t)(m->end_cpu - m->start_cpu) + 1 + !!m->any_cpu;
		m->cpus = arena_calloc(x->scratch, n, sizeof(*m->cpus));
		if (!m->cpus)
			return;
		if (m->any_cpu)
			m->cpus[m->ncpus++] = -1;
		for (uint32_t v = m->start_cpu; v <= m->end_cpu; v++)
			m->cpus[m->ncpus++] = (int32_t)v;
		break;
	default:
		cur_fail(
			c, cur_bad_code(c), "cpu_map_data.type",
			"type %u is none of CPUS (0), MASK (1), RANGE_CPUS (2)",
			m->type);
		return;
	}
	if (!cur_ok(c))
		return;
	m->ok = true;
	if (m->ncpus) {
		int32_t *sorted = arena_memdup(x->scratch, m->cpus,
					       m->ncpus * sizeof(*m->cpus));

		if (sorted)
			m->list = cpu_list(x, sorted, m->ncpus);
	}
}

/* "6.1.187" -> which numbering perf's enum aggr_mode had. */
static int aggr_numbering(const char *v, size_t n)
{
	unsigned major = 0, minor = 0;
	char buf[32];

	if (!v || !n)
		return PD_AGGR_PRE_CACHE;
	snprintf(buf, sizeof(buf), "%.*s", (int)(n < 31 ? n : 31), v);
	if (sscanf(buf, "%u.%u", &major, &minor) != 2)
		return PD_AGGR_PRE_CACHE;
	if (major > 6 || (major == 6 && minor >= 9))
		return PD_AGGR_CLUSTER;
	if (major == 6 && minor >= 4)
		return PD_AGGR_CACHE;
	return PD_AGGR_PRE_CACHE;
}

/* STAT_CONFIG: (head) u64 nr; nr x {u64 tag; u64 val} */
void rec_parse_stat_config(struct rec_ctx *x)
{
	const struct pd_rec_layout *ent = &pd_stat_config_entry_layout;
	struct pd_rec_stat_config *m = &x->r->u.stat_config;
	struct pd_feature *f = NULL;

	/* m->nr untrusted: checked against the bytes left before use (cursor.h) */
	m->v = cur_array(x, &x->c, "data", m->nr, pd_rec_layout_end(ent),
			 sizeof(*m->v));
	for (uint64_t i = 0; m->v && i < m->nr && cur_ok(&x->c); i++) {
		rec_fields(x, ent, &m->v[i]);
		if (cur_ok(&x->c))
			m->nread++;
	}
	/* AGGR_MODE numbering depends on the writer's perf */
	for (size_t i = 0; i < x->s->nfeat; i++)
		if (x->s->feat[i].id == HEADER_VERSION)
			f = &x->s->feat[i];
	if (f) {
		const struct feat_string *v;

		pd_decode_feature(x->s, f);
		v = f->model;
		if (v && v->str.s) {
			m->perf_version = v->str.s;
			m->aggr_numbering =
				aggr_numbering(v->str.s, v->str.len);
		}
	}
}

/*
 * EVENT_UPDATE: (head) u64 type; u64 id; then UNIT (0) / NAME (2): a string to
 * the end; SCALE (1): a double; CPUS (3): cpu_map_data.
 */
void rec_parse_event_update(struct rec_ctx *x)
{
	struct pd_rec_event_update *m = &x->r->u.event_update;
	uint64_t bits;

	if (!cur_ok(&x->c))
		return;
	switch (m->type) {
	case PD_EVENT_UPDATE_UNIT: m->str = rec_tail_string(x, "unit"); break;
	case PD_EVENT_UPDATE_NAME: m->str = rec_tail_string(x, "name"); break;
	case PD_EVENT_UPDATE_SCALE:
		bits = cur_u64(&x->c, "scale");
		memcpy(&m->scale, &bits, sizeof(m->scale));
		break;
	case PD_EVENT_UPDATE_CPUS:
		rec_parse_cpu_map_data(x, &x->c, &m->cpus);
		break;
	default:
		/* a newer type: its data is left as the undecoded tail */
		break;
	}
}

/* ---- SCHEDSTAT (libperf schedstat-v15/16/17.h) ------------------------- */

/* clang-format off */
#define U32(n) { (n), 4 }
#define U64(n) { (n), 8 }
/* clang-format on */

/* CPU fields: the same in 15, 16 and 17 */
static const struct pd_schedstat_field cpu_fields[] = {
	U32("yld_count"),    U32("array_exp"),	U32("sched_count"),
	U32("sched_goidle"), U32("ttwu_count"), U32("ttwu_local"),
	U64("rq_cpu_time"),  U64("run_delay"),	U64("pcount"),
};

#define LB15(p)                                                         \
	U32(p "_lb_count"), U32(p "_lb_balanced"), U32(p "_lb_failed"), \
		U32(p "_lb_imbalance"), U32(p "_lb_gained"),            \
		U32(p "_lb_hot_gained"), U32(p "_lb_nobusyq"),          \
		U32(p "_lb_nobusyg")
#define LB17(p)                                                             \
	U32(p "_lb_count"), U32(p "_lb_balanced"), U32(p "_lb_failed"),     \
		U32(p "_lb_imbalance_load"), U32(p "_lb_imbalance_util"),   \
		U32(p "_lb_imbalance_task"), U32(p "_lb_imbalance_misfit"), \
		U32(p "_lb_gained"), U32(p "_lb_hot_gained"),               \
		U32(p "_lb_nobusyq"), U32(p "_lb_nobusyg")
#define DOMAIN_TAIL                                                       \
	U32("alb_count"), U32("alb_failed"), U32("alb_pushed"),           \
		U32("sbe_count"), U32("sbe_balanced"), U32("sbe_pushed"), \
		U32("sbf_count"), U32("sbf_balanced"), U32("sbf_pushed"), \
		U32("ttwu_wake_remote"), U32("ttwu_move_affine"),         \
		U32("ttwu_move_balance")

static const struct pd_schedstat_field domain_v15[] = {
	LB15("idle"),
	LB15("busy"),
	LB15("newidle"),
	DOMAIN_TAIL,
};
static const struct pd_schedstat_field domain_v16[] = {
	LB15("busy"),
	LB15("idle"),
	LB15("newidle"),
	DOMAIN_TAIL,
};
static const struct pd_schedstat_field domain_v17[] = {
	LB17("busy"),
	LB17("idle"),
	LB17("newidle"),
	DOMAIN_TAIL,
};

const struct pd_schedstat_field *
pd_schedstat_fields(bool domain, uint16_t version, uint32_t *n)
{
	if (version < 15 || version > 17)
		return NULL;
	if (!domain) {
		*n = PD_NELEMS(cpu_fields);
		return cpu_fields;
	}
	if (version == 15) {
		*n = PD_NELEMS(domain_v15);
		return domain_v15;
	}
	if (version == 16) {
		*n = PD_NELEMS(domain_v16);
		return domain_v16;
	}
	*n = PD_NELEMS(domain_v17);
	return domain_v17;
}

/*
 * SCHEDSTAT_CPU:    u64 timestamp; u32 cpu; u16 version; u16 pad; fields
 * SCHEDSTAT_DOMAIN: u64 timestamp; u32 cpu; u16 version; u16 domain; fields
 * The fields are the version's list in C struct layout (u32 and u64 at
 * their natural alignment); an unknown version's are shown as u64 words.
 */
void rec_parse_schedstat(struct rec_ctx *x)
{
	struct pd_rec_schedstat *m = &x->r->u.schedstat;
	struct cursor *c = &x->c;
	bool domain = x->r->type == PD_REC_SCHEDSTAT_DOMAIN;
	uint32_t n = 0;

	m->timestamp = cur_u64(c, "timestamp");
	m->cpu = cur_u32(c, "cpu");
	m->version = cur_u16(c, "version");
	m->domain = cur_u16(c, domain ? "domain" : "pad");
	if (!cur_ok(c))
		return;
	m->fields = pd_schedstat_fields(domain, m->version, &n);
	m->known = m->fields != NULL;
	if (!m->known)
		n = (uint32_t)(cur_left(c) / 8);
	m->vals = cur_array(x, c, "counters", n, m->known ? 4 : 8,
			    sizeof(*m->vals));
	for (uint32_t i = 0; m->vals && i < n && cur_ok(c); i++) {
		uint8_t sz = m->known ? m->fields[i].size : 8;

		if (sz == 8 && c->pos % 8) /* natural alignment in the struct */
			cur_skip(c, "padding", 8 - c->pos % 8);
		if (cur_left(c) < sz && m->known) {
			rec_warn(x, PD_C_UNUSUAL, cur_off(c),
				 "the record ends after %u of the "
				 "%u counters of version %u",
				 i, n, m->version);
			break;
		}
		m->vals[m->nvals++] =
			sz == 8 ? cur_u64(c, m->known ? m->fields[i].name
						      : "counter")
				: cur_u32(c, m->fields[i].name);
	}
}

/* CPU_MAP: perf_record_cpu_map_data */
void rec_parse_cpu_map(struct rec_ctx *x)
{
	rec_parse_cpu_map_data(x, &x->c, &x->r->u.cpu_map);
}
