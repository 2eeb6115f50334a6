/* SPDX-License-Identifier: MIT */
/*
 * Counts that explain a recording (`perfdump stats`): records per type,
 * samples per event, CPU and thread, data quality (LOST, THROTTLE, AUX
 * flags), time span, ordering health across FINISHED_ROUNDs, compression
 * and a byte account of the whole file.
 *
 * One pass over the record stream that reads only the header of each
 * record and the few fields a count needs (a sample's tid, time, cpu and
 * period sit at fixed positions its attr's sample_type gives).  Memory is
 * bounded: per-type and per-CPU arrays, and a thread table capped at
 * PD_STATS_MAX_THREADS entries (more threads are counted, not kept).
 */
#ifndef PD_STATS_H
#define PD_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/analysis/account.h"
#include "lib/session/order.h"

struct pd_session;

#define PD_STATS_MAX_THREADS	 (1u << 18)
#define PD_STATS_MAX_CPUS	 65536u
#define PD_STATS_MAX_OTHER_TYPES 64u

struct pd_stats_type {
	uint32_t type;
	/*
	 * The row of pre-upstream Google pipe streams' feature records
	 * (types 69..80 before the first HEADER_ATTR, reader.h
	 * legacy_feature): type is then meaningless; sorted last.
	 */
	bool legacy_feature;
	const char *name;	     /* the type's name, or NULL when unknown */
	uint64_t count, bytes;	     /* bytes: header.size + payload */
	uint64_t inner, inner_bytes; /* of those, from compressed records */
};

/* A thread, keyed by (pid, tid) as its samples give them. */
struct pd_stats_thread {
	bool used;
	uint32_t tid, pid;
	uint64_t samples;
	bool has_pid; /* pid known (from a sample or a COMM record) */
	bool has_comm_time;
	char comm[16];	    /* its name, latest in time ("" if none) */
	uint64_t comm_time; /* of the COMM or FORK that gave it */
};

struct pd_stats_pid {
	uint32_t pid;
	uint64_t samples;
	uint32_t threads; /* threads of it with samples */
	const char *comm; /* the comm of its main thread, or of any */
};

struct pd_stats_event {
	/*
	 * samples: as perf counts them.  For an event whose samples carry
	 * PERF_SAMPLE_READ (read), one per value read for it whose change
	 * since the last read of its id is not zero, and period the sum of
	 * those changes (stats_read.c); records then counts the SAMPLE
	 * records of the event itself (a group leader's).  Otherwise samples
	 * are its SAMPLE records and period the sum of their PERIOD.
	 */
	uint64_t samples;
	uint64_t period;
	uint64_t records;
	bool read;
};

/* One event's counts in a `perf stat record` file (stats_stat.c). */
struct pd_stats_counter {
	bool counted;		/* it had STAT records */
	uint64_t val, ena, run; /* summed over CPUs and threads */
	uint64_t scaled_val;	/* val * ena / run when run < ena (scale on) */
	int scaled;		/* 0, 1 scaled, -1 not counted (run 0) */
	double count;		/* scaled_val times the unit's scale */
};

struct pd_stats_stat_round {
	uint64_t type, time;
	struct pd_stats_counter *c; /* per event: the change in this round */
};

/* Per event: EVENT_UPDATE's unit and scale, the STATs since the round. */
struct pd_stats_stat_ev {
	char unit[32];
	double scale;
	uint64_t val, ena, run;
	bool pending;
};

#define PD_STATS_MAX_STAT_CELLS (1u << 16) /* rounds kept x events */

struct pd_stats_stat {
	uint32_t nevents;
	uint64_t records, short_records, unknown_id; /* STAT records */
	uint64_t nround_records, last_round_type, last_round_time;
	bool has_config, scale_values;
	uint64_t aggr_mode, interval;
	struct pd_stats_counter *total; /* per event: at the last round */
	struct pd_stats_stat_ev *ev;	/* per event */
	struct pd_stats_stat_round *rounds;
	uint32_t nrounds, cap;
	uint64_t rounds_not_kept;
};

struct pd_stats {
	/* record types: 0..127, simpleperf's 32768..32895, then others */
	struct pd_stats_type *types; /* ntypes, sorted by type at the end */
	uint32_t ntypes;
	uint64_t total_records, total_bytes;
	uint64_t other_type_records; /* beyond PD_STATS_MAX_OTHER_TYPES */
	uint64_t unknown_type_records;

	/* where records came from */
	uint64_t data_bytes; /* bytes of records read from the file */
	uint64_t containers, container_bytes; /* COMPRESSED(2) records */
	uint64_t compressed_bytes, decompressed_bytes; /* zstd in / out */

	/* samples */
	uint64_t samples;
	struct pd_stats_event *events; /* evlist.n entries */
	uint32_t nevents;
	uint64_t samples_unknown_id; /* id belongs to no attr */
	uint64_t samples_no_attr;    /* no attr at all */
	uint64_t *cpu_samples;	     /* ncpus entries, grown as needed */
	uint32_t ncpus;
	uint64_t samples_no_cpu, samples_cpu_out_of_range;
	uint64_t samples_no_tid;
	uint64_t read_unknown_id; /* read values whose id is no attr's */
	uint64_t read_short;	  /* samples too short for their reads */

	/* perf stat record: STAT_CONFIG, STAT, STAT_ROUND, EVENT_UPDATE */
	struct pd_stats_stat stat;

	/* threads */
	struct pd_stats_thread *threads; /* hash table, then compacted */
	uint32_t nthreads, thread_cap;
	uint64_t threads_dropped; /* samples of threads not kept */

	/* data quality */
	uint64_t lost_records, lost;
	uint64_t lost_samples_records, lost_samples;
	uint64_t lost_samples_bpf_records, lost_samples_bpf;
	uint64_t throttle, unthrottle;
	uint64_t aux_records, aux_truncated, aux_overwrite, aux_partial,
		aux_collision;
	uint64_t auxtrace_errors;

	/* time (samples with PERF_SAMPLE_TIME) */
	uint64_t timed_samples;
	uint64_t first_time, last_time; /* in file order */
	uint64_t min_time, max_time;

	/* ordering across FINISHED_ROUND (ordered-events.c; order.h) */
	uint64_t rounds; /* FINISHED_ROUND records */
	uint64_t largest_round_records, largest_round_bytes;
	uint64_t largest_round_offset; /* offset of its first record */
	uint64_t late_samples;	 /* earlier than an already flushed time */
	uint64_t max_late_ns;	 /* by how much, at most */
	uint64_t backward_steps; /* sample earlier than the one before */
	uint64_t max_backward_ns;
	uint64_t max_backward_offset;

	/* internal */
	uint64_t round_start_records, round_start_bytes, round_offset;
	uint64_t other_type_bytes, other_type_inner_bytes;
	struct pd_flush_clock clock; /* samples' times, perf's flush rule */
	uint64_t prev_time;	     /* the stream's sample before, or 0 */

	/* where each stream's whole records end (the byte account's) */
	struct pd_data_ends ends;
};

/*
 * Walk every record of the session (all data.N streams of a directory)
 * and fill st.  Problems go to s->diags.  Returns 0, or -1 when out of
 * memory.
 */
int pd_stats_collect(struct pd_session *s, struct pd_stats *st);

/* The top threads / pids by samples (sorted, most first); n may be 0. */
struct pd_stats_pid *pd_stats_pids(const struct pd_stats *st, uint32_t *n);

/*
 * The threads with samples, most first (ties by tid), copied apart from
 * the thread table; n may be 0.  Free with free().
 */
struct pd_stats_thread *pd_stats_top_threads(const struct pd_stats *st,
					     uint32_t *n);

void pd_stats_free(struct pd_stats *st);

struct pd_event;

/* The last value read per id and perf's counts per evsel (stats_read.c). */
struct pd_stats_read {
	uint64_t *last;		    /* per entry of the evlist's id map */
	uint64_t *samples, *period; /* per evsel */
};
int pd_stats_read_init(struct pd_stats_read *r, const struct pd_session *s);
void pd_stats_read_free(struct pd_stats_read *r);
/* Count the values of a sample's PERF_SAMPLE_READ at u64 slot `slot`. */
void pd_stats_count_read(struct pd_stats *st, const struct pd_session *s,
			 struct pd_stats_read *r, const struct pd_event *ev,
			 uint32_t slot, uint64_t read_format);

/*
 * A COMM, FORK or EXIT record: the thread it names, the time it happened
 * (from FORK's and EXIT's own field, or COMM's sample_id trailer) and, for
 * COMM, the name.  A FORK's name is its parent's (ppid, ptid), which the
 * caller fills in.
 */
struct pd_stats_task {
	bool fork, exit, has_time;
	uint32_t pid, tid, ppid, ptid;
	uint64_t time;
	char comm[16];
};
bool pd_stats_task_view(const struct pd_session *s, const struct pd_event *ev,
			struct pd_stats_task *k);
/* Name t by k unless t has a name from later in time. */
void pd_stats_task_apply(struct pd_stats_thread *t,
			 const struct pd_stats_task *k);

int pd_stats_stat_init(struct pd_stats_stat *c, uint32_t nevents);
void pd_stats_stat_free(struct pd_stats_stat *c);
/* Count a STAT_CONFIG, STAT, STAT_ROUND or EVENT_UPDATE; false: no memory */
bool pd_stats_count_stat(struct pd_stats_stat *c, const struct pd_session *s,
			 const struct pd_event *e);

/* The walk's cold steps: a round ended; a sample earlier than the last. */
void pd_stats_end_round(struct pd_stats *st);
void pd_stats_count_backward(struct pd_stats *st, const struct pd_event *ev,
			     uint64_t t);

struct pd_session;
/* A non-sample kernel record's time into st's flush clock (cold path). */
void pd_stats_clock_other(struct pd_stats *st, struct pd_session *s,
			  const struct pd_event *ev);
/* Counts a LOST, LOST_SAMPLES or AUX record into st (the walk's cold path). */
void pd_stats_count_quality(struct pd_stats *st, const struct pd_event *ev,
			    bool swap);

#endif
