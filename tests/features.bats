#!/usr/bin/env bats
# perfdump features: the decoded values of every feature section, compared
# with what perf printed for the same files (testdata/perf-ref/NAME.header.txt
# is `perf report --header-only -I`), with the build-ids perf listed
# (NAME.buildids.txt), and with the values documented for the synthetic
# files (testdata/synthetic/README.md).  Also NAME selection, --list and
# "missing".

load helpers

REF=testdata/perf-ref
S=testdata/synthetic

# ref NAME LABEL: the text perf printed after "# LABEL :" (first such line)
ref() {
	sed -n "s/^# $2 *: //p" "$REF/$1.header.txt" | head -1
}

# ref_all NAME LABEL: every such line
ref_all() {
	sed -n "s/^# $2 *: //p" "$REF/$1.header.txt"
}

# lines_json: the lines on stdin as a JSON array of strings
lines_json() {
	local out= l
	while IFS= read -r l; do
		out="$out,$(js "$l")"
	done
	printf '[%s]' "${out#,}"
}

# perf's "# event : name = ..., id = { .. }, type = .., ..." lines, one JSON
# object per event: name, ids, type, config, period, sample_type and
# read_format names, the attr bit-flags perf printed as "flag = 1", and
# "late": the other fields perf prints when they are not 0
# (perf_event_attr_fprintf.c: precise_ip, wakeup_events, bp_type,
# { bp_addr, config1 }, { bp_len, config2 }, sample_regs_user,
# sample_stack_user, clockid, sample_regs_intr, aux_watermark,
# sample_max_stack, aux_sample_size, sig_data), as strings.
EVENT_AWK='
BEGIN {
	nf = split("disabled inherit pinned exclusive exclude_user exclude_kernel exclude_hv exclude_idle mmap comm freq inherit_stat enable_on_exec task watermark mmap_data sample_id_all exclude_host exclude_guest exclude_callchain_kernel exclude_callchain_user mmap2 comm_exec use_clockid context_switch write_backward namespaces ksymbol bpf_event aux_output cgroup text_poke build_id inherit_thread remove_on_exec sigtrap", fl, " ")
	for (i = 1; i <= nf; i++)
		isflag[fl[i]] = 1
	nl = split("precise_ip wakeup bp_type config1 config2 sample_regs_user sample_stack_user clockid sample_regs_intr aux_watermark sample_max_stack aux_sample_size sig_data", ll, " ")
	for (i = 1; i <= nl; i++)
		islate[ll[i]] = 1
}
/^# event : / {
	line = $0
	sub(/^# event : /, "", line)
	ids = line
	sub(/.*id = \{ /, "", ids); sub(/ \}.*/, "", ids); gsub(/ /, "", ids)
	sub(/id = \{[^}]*\}, /, "", line)
	gsub(/\{ sample_period, sample_freq \}/, "period", line)
	gsub(/\{ wakeup_events, wakeup_watermark \}/, "wakeup", line)
	gsub(/\{ bp_addr, config1 \}/, "config1", line)
	gsub(/\{ bp_len, config2 \}/, "config2", line)
	n = split(line, kv, ", ")
	name = ""; type = ""; config = "0x0"; period = 0; st = ""; rf = ""; flags = ""; late = ""
	for (i = 1; i <= n; i++) {
		if (kv[i] == "")
			continue
		p = index(kv[i], " = ")
		k = substr(kv[i], 1, p - 1)
		v = substr(kv[i], p + 3)
		if (k == "name") name = v
		else if (k == "type") type = v
		else if (k == "config") config = v
		else if (k == "period") period = v
		else if (k == "sample_type") st = v
		else if (k == "read_format") rf = v
		else if (v == "1" && (k in isflag))
			flags = flags (flags == "" ? "" : ",") "\"" k "\""
		else if (k in islate)
			late = late (late == "" ? "" : ",") "\"" k "\":\"" v "\""
	}
	gsub(/\|/, "\",\"", st)
	gsub(/\|/, "\",\"", rf)
	printf "{\"name\":\"%s\",\"ids\":[%s],\"type\":%s,\"config\":\"%s\",\"period\":%s,\"sample_type\":[\"%s\"],\"read_format\":[\"%s\"],\"flags\":[%s],\"late\":{%s}}\n", name, ids, type, config, period, st, rf, flags, late
}'

# The same projection of a decoded EVENT_DESC event (or of an attrs
# entry: the same formatter writes both).
EVENT_JQ='{name, ids: [.ids[] | num], type, config: (.config | num),
	period: (.sample_freq // .sample_period),
	sample_type: (.sample_type_names | sort),
	read_format: (.read_format_names | sort),
	flags: ((.flags_names // []) - ["precise_ip(1)", "precise_ip(2)"] | sort),
	late: ({precise_ip, wakeup: (.wakeup_events // .wakeup_watermark),
		bp_type, config1: (.bp_addr // .config1),
		config2: (.bp_len // .config2), sample_regs_user, sample_stack_user,
		clockid, sample_regs_intr, aux_watermark, sample_max_stack,
		aux_sample_size, sig_data}
		| map_values(num) | with_entries(select(.value != null and .value != 0)))}'

# perf_events NAME: perf's events as a JSON array in the EVENT_JQ shape.
# perf 6.1 does not print TRANSACTION (testdata/README.md, allbits.data).
perf_events() {
	local extra='.'
	[ "$1" != allbits.data ] || extra='.sample_type += ["TRANSACTION"]'
	awk "$EVENT_AWK" "$REF/$1.header.txt" |
		jq -s -c "$JQ_DEFS map($extra | {name, ids, type, config: (.config | num), period,
			sample_type: (.sample_type | sort), read_format: (.read_format | sort),
			flags: (.flags | sort), late: (.late | map_values(num))})"
}

# check_vs_perf NAME FILE FEATURES: `features FILE` shows the FEATURES and
# the values perf printed in perf-ref/NAME.header.txt.
check_vs_perf() {
	local n=$1 f=$2 feats=$3 v t a=()
	pdj -j features "$f"
	assert_status 0
	assert_empty "$stderr" stderr
	a+=('[.features[].name]' "$(names_json "$feats")")
	a+=('.errors' '[]')
	a+=('.warnings' '[]')
	a+=("$(feature HOSTNAME).value" "$(js "$(ref "$n" hostname)")")
	a+=("$(feature OSRELEASE).value" "$(js "$(ref "$n" 'os release')")")
	a+=("$(feature VERSION).value" "$(js "$(ref "$n" 'perf version')")")
	a+=("$(feature ARCH).value" "$(js "$(ref "$n" arch)")")
	a+=("$(feature NRCPUS) | [.nr_cpus_online, .nr_cpus_avail]"
		"[$(ref "$n" 'nrcpus online'),$(ref "$n" 'nrcpus avail')]")
	a+=("$(feature CPUDESC).value" "$(js "$(ref "$n" cpudesc)")")
	a+=("$(feature CPUID).value" "$(js "$(ref "$n" cpuid)")")
	v=$(ref "$n" 'total memory')
	a+=("$(feature TOTAL_MEM).total_mem_kb" "${v% kB}")
	a+=("$(feature TOTAL_MEM) | .total_mem_bytes == .total_mem_kb * 1024" true)
	# perf joins argv with spaces and adds one at the end
	a+=("$(feature CMDLINE) | (.argv | join(\" \")) + \" \"" "$(js "$(ref "$n" cmdline)")")
	a+=("$(feature CMDLINE) | .nr == (.argv | length)" true)
	a+=("[$(feature EVENT_DESC).events[] | $EVENT_JQ]" "$(perf_events "$n")")
	a+=("$(feature EVENT_DESC) | .nr == (.events | length)" true)
	a+=("$(feature PMU_MAPPINGS) | [.mappings[] | \"\\(.name) = \\(.type)\"] | join(\", \")"
		"$(js "$(ref "$n" 'pmu mappings')")")
	a+=("$(feature SAMPLE_TIME) | [.first_sample_time_s, .last_sample_time_s]"
		"[$(js "$(ref "$n" 'time of first sample')"),$(js "$(ref "$n" 'time of last sample')")]")
	v=$(ref "$n" 'sample duration')
	v=${v% ms}
	a+=("$(feature SAMPLE_TIME) | ((.duration_ns / 1000 | round) / 1000) == (\"${v##* }\" | tonumber)" true)
	# CPU_TOPOLOGY
	a+=("$(feature CPU_TOPOLOGY) | [.sibling_sockets, .sibling_dies, .sibling_threads]"
		"[$(ref_all "$n" 'sibling sockets' | lines_json),$(ref_all "$n" 'sibling dies' | lines_json),$(ref_all "$n" 'sibling threads' | lines_json)]")
	a+=("$(feature CPU_TOPOLOGY) | [.cpus[] | \"CPU \\(.cpu): Core ID \\(.core_id), Die ID \\(.die_id), Socket ID \\(.socket_id)\"]"
		"$(sed -n 's/^# \(CPU [0-9]*: Core ID .*\)$/\1/p' "$REF/$n.header.txt" | lines_json)")
	# NUMA_TOPOLOGY
	a+=("$(feature NUMA_TOPOLOGY) | [.nodes[] | \"node\\(.node) total=\\(.mem_total_kb) free=\\(.mem_free_kb) cpus=\\(.cpus)\"]"
		"$(paste -d' ' \
			<(sed -n 's/^# node\([0-9]*\) meminfo *: total = \([0-9]*\) kB, free = \([0-9]*\) kB$/node\1 total=\2 free=\3/p' "$REF/$n.header.txt") \
			<(sed -n 's/^# node[0-9]* cpu list *: \(.*\)$/cpus=\1/p' "$REF/$n.header.txt") | lines_json)")
	# CACHE (perf prints "# CPU cache info:" when the feature is there)
	grep -q '^# CPU cache info:$' "$REF/$n.header.txt" &&
		a+=("$(feature CACHE) | [.caches[] | \"L\\(.level) \\(.type) \\(.size) [\\(.map)]\"]"
		"$(sed -n 's/^#  L\([0-9]\) *\([A-Za-z]*\) *\([0-9]*[KMG]\) \[\(.*\)\]$/L\1 \2 \3 [\4]/p' "$REF/$n.header.txt" | lines_json)")
	# MEM_TOPOLOGY: "memory nodes (nr 1, block size 0x8000000):", "   0 [24G]: 0-23,32-199"
	v=$(sed -n 's/^# memory nodes (nr \([0-9]*\), block size \(0x[0-9a-f]*\)):$/\1 \2/p' "$REF/$n.header.txt")
	a+=("$(feature MEM_TOPOLOGY) | [.nr, .block_size]" "[${v% *},$((${v#* }))]")
	a+=("$(feature MEM_TOPOLOGY) | [.nodes[] | \"\\(.node) [\\(.mem_size / 1073741824)G]: \\(.blocks)\"]"
		"$(sed -n 's/^# *\([0-9]*\) \[\([0-9]*G\)\]: \(.*\)$/\1 [\2]: \3/p' "$REF/$n.header.txt" | lines_json)")
	# features perf prints nothing for on this machine
	a+=("$(feature PMU_CAPS) | [.nr_pmu, .pmus]" '[0,[]]')
	a+=("$(feature BPF_PROG_INFO) | [.count, .programs]" '[0,[]]')
	a+=("$(feature BPF_BTF) | [.count, .btfs]" '[0,[]]')
	# optional lines
	if v=$(ref "$n" group) && [ -n "$v" ]; then
		a+=("[$(feature EVENT_DESC).events[].name] as \$ev | $(feature GROUP_DESC) | [.groups[] | \"{\" + (\$ev[.leader_idx:.leader_idx + .nr_members] | join(\",\")) + \"}\"]"
			"[$(js "$v")]")
	fi
	if v=$(ref "$n" compressed) && [ -n "$v" ]; then
		a+=("$(feature COMPRESSED) | \"\\(if .type == 1 then \"Zstd\" else \"Unknown\" end), level = \\(.level), ratio = \\(.ratio)\""
			"$(js "$v")")
	fi
	if v=$(ref "$n" 'clockid frequency') && [ -n "$v" ]; then
		a+=("$(feature CLOCKID) | \"\\(.frequency_mhz) MHz\"" "$(js "$v")")
		a+=("$(feature CLOCKID) | .frequency_mhz == .clockid_res_ns * 1000" true)
	fi
	if v=$(ref "$n" clockid) && [ -n "$v" ]; then
		a+=("$(feature CLOCK_DATA) | \"\\(.clockid_name | ltrimstr(\"CLOCK_\") | ascii_downcase) (\\(.clockid))\""
			"$(js "$v")")
		# "2026-11-21 04:50:07.235807 = 1795236607.235807 (TOD) = 200.826509790 (monotonic)"
		v=$(ref "$n" 'reference time')
		t=$(grep -o '"tod_ns":[0-9]*' <<<"$output")
		t=${t#*:}
		assert_eq "$(printf '%d.%06d' $((t / 1000000000)) $((t % 1000000000 / 1000)))" \
			"$(sed 's/.* = \([0-9.]*\) (TOD).*/\1/' <<<"$v")" "CLOCK_DATA tod_ns as seconds"
		a+=("$(feature CLOCK_DATA) | .tod[0:10] + \" \" + .tod[11:26]" "$(js "${v%% = *}")")
		a+=("$(feature CLOCK_DATA) | (.clockid_ns % 1000000000 | tostring) as \$f | \"\\(.clockid_ns / 1000000000 | floor).\" + (\"000000000\"[0:9 - (\$f | length)]) + \$f"
			"$(js "$(sed 's/.*(TOD) = \([0-9.]*\) .*/\1/' <<<"$v")")")
	fi
	if v=$(ref "$n" 'directory data version') && [ -n "$v" ]; then
		a+=("$(feature DIR_FORMAT).version" "$v")
	fi
	if grep -q '^# contains stat data$' "$REF/$n.header.txt"; then
		a+=("$(feature STAT) | [.size, has(\"bytes\")]" '[0,false]')
	fi
	jq_all "${a[@]}"
}

# check_buildids NAME FILE: BUILD_ID lists what `perf buildid-list` printed.
check_buildids() {
	pdj -j features "$2" build_id
	assert_status 0
	jq_all \
		"[$(feature BUILD_ID).build_ids[] | \"\\(.build_id) \\(.filename)\"] | sort" \
		"$(sort "$REF/$1.buildids.txt" | lines_json)" \
		"$(feature BUILD_ID) | .nr == (.build_ids | length)" true \
		"[$(feature BUILD_ID).build_ids[] | .pid] | unique" '[-1]'
}

# --------------------------------------------------- the perf fixtures

@test "features cpu-clock.data: the values perf printed" {
	check_vs_perf cpu-clock.data testdata/cpu-clock.data "$FEAT_cpu_clock"
	# and the README's numbers, literally
	jq_all \
		"$(feature HOSTNAME).value" '"vm"' \
		"$(feature NRCPUS) | [.nr_cpus_avail, .nr_cpus_online]" '[2,2]' \
		"$(feature TOTAL_MEM).total_mem_kb" 24684084 \
		"$(feature CMDLINE).argv" \
		'["/usr/bin/perf","record","-e","cpu-clock","-o","testdata/cpu-clock.data","--","dd","if=/dev/zero","of=/dev/null","bs=1k","count=200000"]' \
		"$(feature EVENT_DESC).events | map([.name, .ids])" '[["cpu-clock",["0x6c","0x6d"]]]' \
		"$(feature SAMPLE_TIME) | [.first_sample_time, .last_sample_time]" '[193085121157,193183034688]'
}

@test "features callgraph.data: the values perf printed" {
	check_vs_perf callgraph.data testdata/callgraph.data "$FEAT_callgraph"
}

@test "features zstd.data: the values perf printed, COMPRESSED zstd level 1 ratio 5" {
	check_vs_perf zstd.data testdata/zstd.data "$FEAT_zstd"
	jq_eq "$(feature COMPRESSED) | [.version, .type, .type_name, .level, .ratio, .mmap_len]" \
		'[0,1,"zstd",1,5,528384]'
}

@test "features tracepoint.data: the values perf printed" {
	check_vs_perf tracepoint.data testdata/tracepoint.data "$FEAT_tracepoint"
}

@test "features tracepoint.data: TRACING_DATA lists sched:sched_switch with its ID (attr config 0x174)" {
	pdj -j features testdata/tracepoint.data tracing_data event_desc
	assert_status 0
	jq_all \
		"$(feature TRACING_DATA) | [.complete, .version, .long_size, .page_size]" '[true,"0.6",8,4096]' \
		"$(feature TRACING_DATA) | [.events[] | [.system, .name, .id]]" '[["sched","sched_switch",372]]' \
		"$(feature TRACING_DATA) | .nr_events == (.events | length)" true \
		"$(feature TRACING_DATA).header_page_fields" '["timestamp","commit","overwrite","data"]' \
		"$(feature EVENT_DESC).events[0] | [.name, (.config | num)]" '["sched:sched_switch",372]'
}

@test "features group.data: the values perf printed, group {cpu-clock,task-clock}" {
	check_vs_perf group.data testdata/group.data "$FEAT_group"
	jq_eq "$(feature GROUP_DESC) | [.nr, .groups]" \
		'[1,[{"name":"{anon_group}","leader_idx":0,"nr_members":2}]]'
}

@test "features mono.data: the values perf printed, CLOCKID and CLOCK_DATA" {
	check_vs_perf mono.data testdata/mono.data "$FEAT_mono"
	jq_all \
		"$(feature CLOCKID) | [.clockid_res_ns, .frequency_mhz]" '[1,1000]' \
		"$(feature CLOCK_DATA) | [.version, .clockid, .clockid_name, .clockid_ns]" \
		'[1,1,"CLOCK_MONOTONIC",200826509790]' \
		"$(feature CLOCK_DATA).tod | startswith(\"2026-11-21T04:50:07.235807\")" true
}

@test "features stat.data: the values perf printed, STAT, empty COMPRESSED, realtime CLOCK_DATA" {
	check_vs_perf stat.data testdata/stat.data "$FEAT_stat"
	jq_all \
		"$(feature GROUP_DESC) | [.nr, .groups]" '[0,[]]' \
		"$(feature COMPRESSED) | [.type, .level, .ratio]" '[0,0,0]' \
		"$(feature CLOCK_DATA) | [.clockid, .clockid_name, .tod_ns, .clockid_ns, .tod]" \
		'[0,"CLOCK_REALTIME",0,0,"1970-01-01T00:00:00.000000000Z"]'
}

@test "features allbits.data: the values perf printed (plus TRANSACTION)" {
	check_vs_perf allbits.data testdata/allbits.data "$FEAT_allbits"
	jq_eq "[$(feature EVENT_DESC).events[] | [.sample_type, .read_format]]" \
		'[["0x1efb5bf","0x1f"],["0x1efb5bf","0x1f"]]'
}

# bats test_tags=asan
@test "features threads.data (directory): the values perf printed, DIR_FORMAT 1" {
	check_vs_perf threads.data testdata/threads.data "$FEAT_threads"
	jq_all \
		"$(feature DIR_FORMAT) | [.version, .version_name]" '[1,"PERF_DIR_VERSION"]' \
		"$(feature CMDLINE).argv[-3:]" \
		'["sh","-c","dd if=/dev/zero of=/dev/null bs=1k count=100000 & dd if=/dev/zero of=/dev/null bs=1k count=100000; wait"]'
}

@test "features pipe.data: the values perf printed, from HEADER_FEATURE records" {
	check_vs_perf pipe.data testdata/pipe.data "$FEAT_pipe"
	jq_all \
		'[.features[].source] | unique' '["header_feature_record"]' \
		"$(feature HOSTNAME) | [.record_offset, .offset, .size]" '[168,184,68]'
}

# perf prints an attr's other fields on its "# event" lines when they are
# not 0 (perf_event_attr_fprintf.c); EVENT_DESC (features) and the attrs
# section (attrs) go through the one attr formatter, so both show them
@test "features and attrs: every attr field perf prints on its # event lines (regs, breakpoint, clockid)" {
	local name want
	for name in regs.data bp.data mono.data allbits.data; do
		want=$(perf_events "$name")
		pdj -j features "testdata/$name" event_desc
		jq_eq "[$(feature EVENT_DESC).events[] | $EVENT_JQ]" "$want"
		pdj -j attrs "testdata/$name"
		jq_eq "[.attrs[] | $EVENT_JQ]" "$want"
	done
	# and literally
	pdj -j features testdata/regs.data event_desc
	jq_eq "$(feature EVENT_DESC).events[0] | [.sample_regs_user, .sample_stack_user, .clockid, .clockid_name, .sample_regs_intr, .sample_max_stack]" \
		'["0x183",256,1,"CLOCK_MONOTONIC","0x81",16]'
	pdj -j features testdata/bp.data event_desc
	jq_eq "$(feature EVENT_DESC).events[0] | [.name, .type, .bp_type_names, .bp_addr, .bp_len]" \
		'["mem:0x1000:rw",5,["R","W"],"0x1000",4]'
}

# bats test_tags=asan
@test "features pipe.data: the machine's features equal those of the file fixture" {
	local strip='def strip: if type == "object" then del(.offset, .record_offset, .source, .attr_offset) | map_values(strip) elif type == "array" then map(strip) else . end;'
	local names='["HOSTNAME","OSRELEASE","VERSION","ARCH","NRCPUS","CPUDESC","CPUID","TOTAL_MEM","CPU_TOPOLOGY","PMU_MAPPINGS","MEM_TOPOLOGY","BPF_PROG_INFO","BPF_BTF","PMU_CAPS"]'
	pd -j features testdata/cpu-clock.data
	local want
	want=$(jq -c "$strip [.features[] | select(.name as \$n | $names | index(\$n))] | strip" <<<"$output")
	pdj -j features testdata/pipe.data
	jq_all \
		"$strip [.features[] | select(.name as \$n | $names | index(\$n))] | strip" "$want" \
		"[$(feature NUMA_TOPOLOGY).nodes[] | [.node, .mem_total_kb, .cpus]]" '[[0,3762380,"0-1"]]' \
		"[$(feature EVENT_DESC).events[] | [.name, .ids, .sample_type_names]]" \
		'[["cpu-clock",["0x87","0x88"],["IP","TID","TIME","ID","PERIOD"]]]' \
		"$(feature SAMPLE_TIME) | [.first_sample_time, .last_sample_time]" '[0,0]'
}

@test "features killed.data: no feature section: exit 1, the data.size error, no features" {
	pdj -j features testdata/killed.data
	assert_status 1
	assert_contains "$stderr" "perfdump: testdata/killed.data: 0x30: "
	jq_all \
		'.features' '[]' \
		'[.errors[].offset]' '[48]'
}

# bats test_tags=asan,normal
@test "features: BUILD_ID equals perf buildid-list for every fixture with build-ids" {
	sweep
	for n in cpu-clock callgraph tracepoint group mono allbits; do
		check_buildids $n.data testdata/$n.data
	done
	check_buildids threads.data testdata/threads.data
	jq_eq "$(feature BUILD_ID).build_ids[0]" \
		'{"offset":1000,"size":100,"type":0,"misc":"0x8001","cpumode":1,"cpumode_name":"kernel","pid":-1,"build_id_size":20,"build_id":"4a5a9b0affb66c437abcd455d2738af879985fa9","filename":"[kernel.kallsyms]"}'
}

@test "features: fixtures without BUILD_ID (zstd, stat, pipe) have no BUILD_ID feature" {
	for n in zstd stat pipe; do
		pdj -j features testdata/$n.data build_id
		assert_status 0
		jq_all '.features' '[]' '.missing' '["BUILD_ID"]'
	done
}

# ---------------------------------------------------- NAME selection

# bats test_tags=asan
@test "features NAME: hostname, HEADER_HOSTNAME, Hostname, header_hostname, 3 select HOSTNAME" {
	for name in hostname HEADER_HOSTNAME Hostname header_hostname HOSTNAME 3; do
		pdj -j features testdata/cpu-clock.data "$name"
		assert_status 0
		jq_all \
			'[.features[].name]' '["HOSTNAME"]' \
			"$(feature HOSTNAME).value" '"vm"' \
			'.missing' '[]'
	done
}

# bats test_tags=asan
@test "features NAME...: several names, shown in file order, each once" {
	pdj -j features testdata/cpu-clock.data cpuid hostname 13 HOSTNAME
	assert_status 0
	jq_all \
		'[.features[].name]' '["HOSTNAME","CPUID","CPU_TOPOLOGY"]' \
		"$(feature CPU_TOPOLOGY).nr_cpus" 2 \
		'.missing' '[]'
}

# bats test_tags=asan
@test "features NAME: a feature the file lacks is listed in missing" {
	pdj -j features testdata/cpu-clock.data hostname group_desc clockid
	assert_status 0
	jq_all \
		'[.features[].name]' '["HOSTNAME"]' \
		'.missing' '["GROUP_DESC","CLOCKID"]'
	pd features testdata/cpu-clock.data group_desc
	assert_status 0
	assert_contains "$output" "missing:"
	assert_contains "$output" "GROUP_DESC"
	# an id nobody defines is listed by number
	pdj -j features testdata/cpu-clock.data 40
	assert_status 0
	jq_all '.features' '[]' '.missing' '[40]'
}

# bats test_tags=asan
@test "features NAME: a simpleperf feature by name" {
	pdj -j features $S/unknown-features.data sp_meta_info
	assert_status 0
	jq_all \
		'[.features[].id]' '[129]' \
		"$(feature SP_META_INFO).info" \
		'[{"key":"simpleperf_version","value":"1.build.test"},{"key":"android_version","value":"14"}]'
}

# bats test_tags=asan
@test "features NAME: an unknown name is a usage error (exit 2)" {
	pd features testdata/cpu-clock.data nosuchfeature
	assert_status 2
	assert_empty "$output" stdout
	assert_contains "$stderr" "nosuchfeature"
	pd features testdata/cpu-clock.data hostname HEADER_NOPE
	assert_status 2
	assert_contains "$stderr" "HEADER_NOPE"
	pd features testdata/cpu-clock.data 256
	assert_status 2
}

@test "features without NAME has no missing list" {
	pdj -j features testdata/cpu-clock.data
	jq_true 'has("missing") | not'
}

# ----------------------------------------------------------------- --list

# bats test_tags=asan
@test "features --list: ids 1..34 and 128..134 with present true/false" {
	pdj -j features --list testdata/cpu-clock.data
	assert_status 0
	jq_all \
		'[.features[].id]' "[$(seq -s, 1 34),$(seq -s, 128 134)]" \
		'[.features[] | select(.present) | .name]' "$(names_json "$FEAT_cpu_clock")" \
		'[.features[] | select(.present | not) | .name]' \
		'["TRACING_DATA","BRANCH_STACK","GROUP_DESC","AUXTRACE","STAT","CLOCKID","DIR_FORMAT","COMPRESSED","CPU_PMU_CAPS","CLOCK_DATA","HYBRID_TOPOLOGY","CPU_DOMAIN_INFO","E_MACHINE","CLN_SIZE","SP_FILE","SP_META_INFO","SP_DEBUG_UNWIND","SP_DEBUG_UNWIND_FILE","SP_FILE2","SP_ETM_BRANCH_LIST","SP_INIT_MAP"]' \
		'.features[0]' '{"id":1,"name":"TRACING_DATA","present":false}' \
		'.features[2]' '{"id":3,"name":"HOSTNAME","present":true}'
	pd features --list testdata/cpu-clock.data
	assert_status 0
	assert_contains "$output" $'\n  id=1 name=TRACING_DATA present=no\n  id=2 name=BUILD_ID present=yes\n'
	assert_contains "$output" $'\n  id=134 name=SP_INIT_MAP present=no'
	local text=$output
	pd features -l testdata/cpu-clock.data
	assert_eq "$output" "$text" "-l vs --list"
}

# bats test_tags=asan,normal
@test "features --list agrees with the header's feature list for every fixture" {
	sweep
	local f
	# (not killed.data: its bitmap names features whose sections were never written)
	for f in testdata/{allbits,callgraph,cpu-clock,group,mono,pipe,stat,tracepoint,zstd}.data \
		testdata/threads.data $S/full-le.data $S/v1.data $S/unknown-features.data; do
		pd -j header "$f"
		local want
		want=$(jq -c '[.header.feature_records[]?.name, .header.features[]?] | map(select(test("^bit ") | not)) | unique' <<<"$output")
		pdj -j features --list "$f"
		jq_eq '[.features[] | select(.present) | .name | select(. != null)] | unique' "$want"
	done
}

# bats test_tags=asan
@test "features --list shows present unknown ids (40, 100, 200) too" {
	pdj -j features --list $S/unknown-features.data
	assert_status 0
	jq_all \
		'[.features[] | select(.present) | [.id, .name]]' \
		'[[3,"HOSTNAME"],[6,"ARCH"],[7,"NRCPUS"],[40,null],[100,null],[129,"SP_META_INFO"],[200,null]]'
}

# bats test_tags=asan
@test "features --list on a pipe: the features carried by records" {
	pdj -j features --list testdata/pipe.data
	assert_status 0
	jq_eq '[.features[] | select(.present) | .name]' "$(names_json "$FEAT_pipe")"
}

# ------------------------------------------------------------------- -x

@test "features -x: the raw bytes of each feature, equal to the file's" {
	pdj -j -x features testdata/cpu-clock.data hostname nrcpus
	assert_status 0
	jq_all \
		"$(feature HOSTNAME).raw" "{\"offset\":17684,\"size\":68,\"hex\":\"$(hexbytes testdata/cpu-clock.data 17684 68)\"}" \
		"$(feature NRCPUS).raw" "{\"offset\":17956,\"size\":8,\"hex\":\"$(hexbytes testdata/cpu-clock.data 17956 8)\"}"
	pd -x features testdata/cpu-clock.data hostname
	assert_contains "$output" $'\n    raw: 68 bytes at 0x4514\n      0x00004514  40 00 00 00 76 6d 00 00  00 00 00 00 00 00 00 00  |@...vm..........|\n'
	pdj -j features testdata/cpu-clock.data hostname
	jq_true "$(feature HOSTNAME) | has(\"raw\") | not"
}

@test "features -x: a section longer than one 4 KiB piece of the hex writer, equal to the file's" {
	pdj -j -x features testdata/tp-sched.data tracing_data
	assert_status 0
	jq_all \
		"$(feature TRACING_DATA).raw | [.offset, .size, (.hex | length)]" '[28872,6907,13814]' \
		"$(feature TRACING_DATA).raw.hex" "\"$(hexbytes testdata/tp-sched.data 28872 6907)\""
}

# bats test_tags=asan,normal
@test "features: every decoder consumes its whole section on every fixture (no warnings)" {
	sweep
	local f docs= n=0 bad
	# (full-be32.data has one warning: its bitmap was guessed as 8 x u32)
	for f in testdata/*.data testdata/threads.data $S/full-le.data $S/full-be.data \
		$S/full-be32.data $S/pipe-le.data $S/pipe-be.data $S/v1.data $S/unknown-features.data \
		$S/attrs-after-data.data $S/attr-big.data; do
		pd -j features "$f"
		case $f in testdata/killed.data | testdata/killed-u.data) ;; *) assert_status 0 ;; esac
		docs="$docs$output
"
		n=$((n + 1))
	done
	# one jq over every document: the contract's keys, and a line for each
	# warning or feature left undecoded
	bad=$(jq -r -n --argjson n "$n" '[inputs] | if length != $n then "\(length) documents for \($n) files" else .[] |
		if .perfdump_json_version != 1 or (.file | type) != "string" or (.errors | type) != "array" then "\(.file): not a document"
		else .file as $f |
			([.warnings[] | select(.offset != 72 or (.what | test("feature bitmap") | not))] | select(. != []) | "\($f): warnings \(.)"),
			([.features[] | select(has("bytes") and .name != null) | .name] | select(. != []) | "\($f): bytes of \(.)"),
			([.features[] | select(has("unparsed_bytes")) | .name] | select(. != []) | "\($f): unparsed bytes of \(.)")
		end end' <<<"$docs" 2>&1)
	assert_empty "$bad" "features not wholly decoded"
}

# bats test_tags=asan
@test "features text: one titled block per feature with aligned rows" {
	pd features testdata/cpu-clock.data hostname nrcpus cmdline
	assert_status 0
	local want
	want=$(
		cat <<'EOF'
File: testdata/cpu-clock.data
features:
  HEADER_HOSTNAME (3) at 0x4514, 68 bytes:
    id:                     3
    name:                   HOSTNAME
    source:                 section
    offset:                 0x4514
    size:                   68
    value:                  vm
  HEADER_NRCPUS (7) at 0x4624, 8 bytes:
    id:                     7
    name:                   NRCPUS
    source:                 section
    offset:                 0x4624
    size:                   8
    nr_cpus_avail:          2
    nr_cpus_online:         2
EOF
	)
	assert_eq "$(printf '%s\n' "$output" | head -17)" "$want" "text output"
	assert_contains "$output" $'\n    argv:                   /usr/bin/perf record -e cpu-clock -o testdata/cpu-clock.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000\n'
}

# argv_back LINE: the words a shell reads from LINE, one per line, in hex
argv_back() {
	# shellcheck disable=SC2016
	bash -c 'eval "set -- $1"; for a; do printf %s "$a" | od -An -tx1 | tr -d " \n"; echo; done' - "$1"
}

# argv_hex: the NUL-terminated words on stdin as one hex string
argv_hex() {
	od -An -v -tx1 | tr -d ' \n'
}

@test "features text: the command line as a shell needs it typed, read back into the same arguments" {
	sweep
	local f line want
	# each fixture's argv: the text line, read by a shell, is the JSON array
	# (each word NUL-terminated: words hold no NUL, so equal bytes are equal
	# words; one od per side and fixture, not one per word)
	for f in testdata/*.data testdata/threads.data; do
		pdj -j features "$f" cmdline
		want=$(jq -j 'if (.features | length) == 1 then .features[0].argv[] + "\u0000" else "-" end' <<<"$output" | argv_hex)
		[ "$want" != 2d ] || continue
		pd features "$f" cmdline
		line=$(sed -n 's/^    argv: *//p' <<<"$output")
		# shellcheck disable=SC2016
		assert_eq "$(bash -c 'eval "set -- $1"; printf "%s\0" "$@"' - "$line" | argv_hex)" "$want" "$f: $line"
	done
}

# bats test_tags=asan
@test "features text: a command line of quotes, blanks, control bytes and bytes not UTF-8, read back into the same arguments" {
	local line
	python3 scripts/gen-hostile-strings.py "$BATS_TEST_TMPDIR/c.data" --cmdline \
		perf record -- sh -c "echo 'a b'" "" "it's" $'tab\tesc\x1b' $'\xfe\\' '~x' '#y' 'z*'
	pd features "$BATS_TEST_TMPDIR/c.data" cmdline
	line=$(sed -n 's/^    argv: *//p' <<<"$output")
	assert_eq "$line" "perf record -- sh -c 'echo '\\''a b'\\''' '' 'it'\\''s' \$'tab\\tesc\\x1b' \$'\\xfe\\\\' '~x' '#y' 'z*'"
	assert_eq "$(argv_back "$line")" "$(printf '%s\n' 70657266 7265636f7264 2d2d 7368 2d63 6563686f202761206227 '' 69742773 746162096573631b fe5c 7e78 2379 7a2a)"
}

# ------------------------------------------------------------ synthetic

# bats test_tags=asan
@test "features full-le.data: every feature decoded as documented" {
	pdj -j features $S/full-le.data
	assert_status 0
	assert_empty "$stderr" stderr
	local t
	t=$(grep -o '"tod_ns":[0-9]*' <<<"$output")
	assert_eq "$t" '"tod_ns":1795255200123456789' "CLOCK_DATA tod_ns (raw JSON text)"
	jq_all \
		'[.features[].name]' "$(names_json "$ALL32")" \
		'.errors' '[]' \
		'.warnings' '[]' \
		"$(feature TRACING_DATA) | [.complete, .version, .big_endian, .long_size, .page_size, .nr_ftrace]" \
		'[true,"0.6",0,8,4096,1]' \
		"$(feature TRACING_DATA) | [.events[] | [.system, .name, .id, .size]]" \
		'[["ftrace","function",1,460],["sched","sched_switch",316,876],["sched","sched_wakeup",318,582],["irq","irq_handler_entry",100,449]]' \
		"$(feature TRACING_DATA) | [.header_page_size, .header_event_size, .kallsyms_size, .printk_size, .saved_cmdlines_size]" \
		'[205,205,0,79,20]' \
		"$(feature BUILD_ID) | [.build_ids[] | [.misc, .pid, .build_id_size, .build_id, .filename, .size]]" \
		'[["0x1",-1,20,"1f2e3d4c5b6a79880011223344556677aabbccdd","[kernel.kallsyms]",100],["0x8002",-1,20,"0123456789abcdef0123456789abcdef01234567","/usr/bin/true",52],["0x8002",-1,16,"fedcba9876543210fedcba9876543210","/usr/lib/libsynth.so.1",64]]' \
		"$(feature HOSTNAME).value" '"perfdump-synth"' \
		"$(feature OSRELEASE).value" '"6.12.0-synthetic"' \
		"$(feature VERSION).value" '"6.12.0"' \
		"$(feature ARCH).value" '"x86_64"' \
		"$(feature NRCPUS) | [.nr_cpus_avail, .nr_cpus_online]" '[8,4]' \
		"$(feature CPUDESC).value" '"12th Gen Intel(R) Core(TM) i7-1260P"' \
		"$(feature CPUID).value" '"GenuineIntel,6,154,3"' \
		"$(feature TOTAL_MEM).total_mem_kb" 16318412 \
		"$(feature CMDLINE).argv" '["/usr/bin/perf","record","-e","{cpu-clock,task-clock}","-c","100000","--","/usr/bin/true"]' \
		"$(feature EVENT_DESC) | [.nr, .attr_sz]" '[2,136]' \
		"[$(feature EVENT_DESC).events[] | [.name, .type, (.config | num), .sample_period, .sample_type, .read_format, .flags, .ids]]" \
		'[["cpu-clock",1,0,100000,"0x1c7","0x4","0x1840343",["0x101","0x102"]],["task-clock",1,1,100000,"0x1c7","0x4","0x40042",["0x201","0x202"]]]' \
		"$(feature CPU_TOPOLOGY) | [.sibling_sockets, .sibling_threads, .sibling_dies]" '[["0-3"],["0-1","2-3"],["0-3"]]' \
		"[$(feature CPU_TOPOLOGY).cpus[] | [.cpu, .core_id, .socket_id, .die_id]]" \
		'[[0,0,0,0],[1,0,0,0],[2,1,0,0],[3,1,0,0],[4,-1,-1,-1],[5,-1,-1,-1],[6,-1,-1,-1],[7,-1,-1,-1]]' \
		"$(feature NUMA_TOPOLOGY).nodes" \
		'[{"node":0,"mem_total_kb":8159206,"mem_free_kb":6123456,"cpus":"0-3"},{"node":1,"mem_total_kb":8159206,"mem_free_kb":7012345,"cpus":"4-7"}]' \
		"$(feature BRANCH_STACK) | [.size, has(\"bytes\")]" '[0,false]' \
		"$(feature PMU_MAPPINGS).mappings" \
		'[{"type":1,"name":"software"},{"type":2,"name":"tracepoint"},{"type":4,"name":"cpu"},{"type":5,"name":"breakpoint"}]' \
		"$(feature GROUP_DESC).groups" '[{"name":"{anon_group}","leader_idx":0,"nr_members":2}]' \
		"$(feature AUXTRACE).entries" '[{"file_offset":728,"sz":48},{"file_offset":792,"sz":48}]' \
		"$(feature STAT) | [.size, has(\"bytes\")]" '[0,false]' \
		"$(feature CACHE) | [.version, .nr]" '[1,3]' \
		"[$(feature CACHE).caches[] | [.level, .line_size, .sets, .ways, .type, .size, .map]]" \
		'[[1,64,64,12,"Data","48K","0-1"],[2,64,2048,10,"Unified","1280K","0-1"],[3,64,16384,12,"Unified","12288K","0-3"]]' \
		"$(feature SAMPLE_TIME) | [.first_sample_time, .last_sample_time]" '[1000000200000,1000000300000]' \
		"$(feature MEM_TOPOLOGY) | [.version, .block_size, .nr]" '[1,134217728,2]' \
		"[$(feature MEM_TOPOLOGY).nodes[] | [.node, .size_bits, .blocks]]" '[[0,64,"0-63"],[1,128,"64-127"]]' \
		"$(feature CLOCKID) | [.clockid_res_ns, .frequency_mhz]" '[1,1000]' \
		"$(feature DIR_FORMAT).version" 1 \
		"$(feature BPF_PROG_INFO).count" 1 \
		"$(feature BPF_PROG_INFO).programs[0] | [.info_len, .data_len, .arrays, .type, .id, .tag, .jited_prog_len, .xlated_prog_len, .load_time, .name, .verified_insns]" \
		'[232,24,"0x118",2,42,"1a2b3c4d5e6f7081",452,672,999000000000,"perfdump_probe",84]' \
		"$(feature BPF_PROG_INFO).programs[0].sub_progs" \
		'[{"addr":"0xffffffffc0a01000","size":452,"tag":"1a2b3c4d5e6f7081","ksym":"bpf_prog_1a2b3c4d5e6f7081_perfdump_probe"}]' \
		"$(feature BPF_BTF) | [.count, [.btfs[] | [.id, .data_size]]]" '[2,[[7,45],[8,46]]]' \
		"$(feature COMPRESSED) | [.version, .type, .level, .ratio, .mmap_len]" '[0,1,1,3,528384]' \
		"$(feature CPU_PMU_CAPS).caps" \
		'[{"name":"branches","value":"32"},{"name":"max_precise","value":"3"},{"name":"pmu_name","value":"skylake"}]' \
		"$(feature CLOCK_DATA) | [.version, .clockid, .clockid_ns, .tod]" \
		'[1,1,1000000000000,"2026-11-21T10:00:00.123456789Z"]' \
		"$(feature HYBRID_TOPOLOGY).nodes" '[{"pmu_name":"cpu_core","cpus":"0-3"},{"pmu_name":"cpu_atom","cpus":"4-7"}]' \
		"$(feature PMU_CAPS) | [.nr_pmu, [.pmus[] | [.pmu_name, [.caps[] | \"\\(.name)=\\(.value)\"]]]]" \
		'[2,[["cpu_core",["branches=32","max_precise=3","pmu_name=alderlake_hybrid"]],["cpu_atom",["branches=32","pmu_name=alderlake_hybrid"]]]]' \
		"$(feature CPU_DOMAIN_INFO) | [.schedstat_version, .max_sched_domains, .nr_cpus]" '[17,2,4]' \
		"[$(feature CPU_DOMAIN_INFO).cpus[] | [.cpu, [.domains[] | \"\\(.domain) \\(.dname) \\(.cpumask) \\(.cpulist)\"]]]" \
		'[[0,["0 SMT 00000003 0-1","1 MC 0000000f 0-3"]],[1,["0 SMT 00000003 0-1","1 MC 0000000f 0-3"]],[2,["0 SMT 0000000c 2-3","1 MC 0000000f 0-3"]],[3,["0 SMT 0000000c 2-3","1 MC 0000000f 0-3"]]]'
}

# full-le's decoded features without the offsets of where they came from
STRIP='def strip: if type == "object" then del(.offset, .record_offset, .source, .attr_offset, .blob_offset, .header_page_offset, .header_event_offset, .kallsyms_offset, .printk_offset, .saved_cmdlines_offset) | map_values(strip) elif type == "array" then map(strip) else . end;'

# bats test_tags=asan
@test "features full-be.data and full-be32.data: the same values as full-le.data" {
	pd -j features $S/full-le.data
	local le
	le=$(jq -c 'del(.file, .warnings) | .features |= map(if .name == "TRACING_DATA" then del(.big_endian, .big_endian_name) else . end)' <<<"$output")
	for f in full-be full-be32; do
		pdj -j features $S/$f.data
		assert_status 0
		assert_empty "$stderr" stderr
		jq_all \
			"$(feature TRACING_DATA) | [.big_endian, .big_endian_name]" '[1,"big-endian"]' \
			'del(.file, .warnings) | .features |= map(if .name == "TRACING_DATA" then del(.big_endian, .big_endian_name) else . end)' "$le"
		grep -q '"tod_ns":1795255200123456789' <<<"$output"
	done
}

# bats test_tags=asan
@test "features pipe-le.data and pipe-be.data: the full-le values, from records" {
	local ids='["HOSTNAME","OSRELEASE","VERSION","ARCH","NRCPUS","CPUDESC","CPUID","TOTAL_MEM","CMDLINE","EVENT_DESC","PMU_MAPPINGS","SAMPLE_TIME"]'
	pd -j features $S/full-le.data
	local le tr
	# (full-le's SAMPLE_TIME also has wall-clock times from its CLOCK_DATA)
	le=$(jq -c "$STRIP [.features[] | select(.name as \$n | $ids | index(\$n)) | del(.first_sample_tod, .last_sample_tod)] | strip" <<<"$output")
	tr=$(jq -c "$(feature TRACING_DATA).events" <<<"$output")
	for f in pipe-le pipe-be; do
		pdj -j features $S/$f.data
		assert_status 0
		assert_empty "$stderr" stderr
		jq_all \
			'[.features[].name]' '["HOSTNAME","OSRELEASE","VERSION","ARCH","NRCPUS","CPUDESC","CPUID","TOTAL_MEM","CMDLINE","EVENT_DESC","PMU_MAPPINGS","SAMPLE_TIME","TRACING_DATA","BUILD_ID"]' \
			"$STRIP [.features[] | select(.name as \$n | $ids | index(\$n))] | strip" "$le" \
			"$(feature TRACING_DATA) | [.source, .size, .blob_size, .complete]" '["header_tracing_data_record",3016,3011,true]' \
			"[$(feature TRACING_DATA).events[] | del(.offset)]" "$(jq -c 'map(del(.offset))' <<<"$tr")" \
			"$(feature BUILD_ID) | [.source, [.build_ids[] | [.misc, .pid, .build_id, .filename]]]" \
			'["header_build_id_records",[["0x8002",-1,"0123456789abcdef0123456789abcdef01234567","/usr/bin/true"]]]'
	done
}

@test "features v1.data: BUILD_ID with a legacy 64-byte name" {
	pdj -j features $S/v1.data
	assert_status 0
	jq_eq "$(feature BUILD_ID).build_ids" \
		'[{"offset":456,"size":100,"type":0,"misc":"0x2","cpumode":2,"cpumode_name":"user","pid":-1,"build_id_size":20,"build_id":"a1b2c3d4e5f60718293a4b5c6d7e8f9001122334","filename":"/bin/true"}]'
}

@test "features unknown-features.data: unknown bits hex-dumped, META_INFO decoded" {
	pdj -j features $S/unknown-features.data
	assert_status 0
	jq_all \
		'[.features[] | [.id, .name]]' '[[3,"HOSTNAME"],[6,"ARCH"],[7,"NRCPUS"],[40,null],[100,null],[129,"SP_META_INFO"],[200,null]]' \
		'[.features[] | select(.name == null) | .bytes]' \
		'[{"offset":664,"size":16,"hex":"554e4b4e4f574e2d3430000000000000"},{"offset":680,"size":16,"hex":"554e4b4e4f574e2d3130300000000000"},{"offset":747,"size":16,"hex":"554e4b4e4f574e2d3230300000000000"}]' \
		"$(feature HOSTNAME).value" '"perfdump-synth"' \
		"$(feature NRCPUS) | [.nr_cpus_avail, .nr_cpus_online]" '[8,4]' \
		"$(feature SP_META_INFO) | [.nr, .info]" \
		'[2,[{"key":"simpleperf_version","value":"1.build.test"},{"key":"android_version","value":"14"}]]' \
		'.warnings' '[]'
	pd features $S/unknown-features.data
	assert_contains "$output" $'      0x00000298  55 4e 4b 4e 4f 57 4e 2d  34 30 00 00 00 00 00 00  |UNKNOWN-40......|\n'
	assert_contains "$output" $'\n      key=simpleperf_version value=1.build.test\n'
}

@test "features attrs-after-data.data: decoded like full-le" {
	pdj -j features $S/attrs-after-data.data
	assert_status 0
	jq_all \
		'[.features[].name]' '["HOSTNAME","ARCH","NRCPUS","EVENT_DESC"]' \
		"[$(feature EVENT_DESC).events[] | [.name, .ids]]" '[["cpu-clock",["0x101","0x102"]],["task-clock",["0x201","0x202"]]]' \
		"$(feature HOSTNAME).value" '"perfdump-synth"'
}

@test "features attr-big.data: EVENT_DESC with attr_sz 160" {
	pdj -j features $S/attr-big.data
	assert_status 0
	jq_all \
		"$(feature EVENT_DESC) | [.nr, .attr_sz]" '[1,160]' \
		"[$(feature EVENT_DESC).events[] | [.name, .size, .sample_type, .ids]]" '[["cpu-clock",160,"0x1c7",["0x301"]]]'
}

# bats test_tags=asan
@test "features trunc-feature.data: 1-11 decoded, EVENT_DESC torn at 0x162b, exit 1" {
	local f=$S/trunc-feature.data
	pd -j features $S/full-le.data
	local le
	le=$(jq -c '[.features[] | select(.id <= 11)]' <<<"$output")
	pdj -j features $f
	assert_status 1
	assert_contains "$stderr" "perfdump: $f: 0x162b: HEADER_EVENT_DESC: "
	jq_all \
		'[.features[] | select(.id <= 11)]' "$le" \
		'.errors | any(.offset == 5675 and (.what | test("EVENT_DESC")))' true \
		"$(feature EVENT_DESC).events" '[]'
}

@test "features of truncated and invalid files: exit 1, never a signal, JSON still valid" {
	for f in $S/trunc-*.data $S/zero-magic.data; do
		for fmt in "" -j; do
			# shellcheck disable=SC2086
			pd $fmt features "$f"
			assert_no_signal
			assert_eq "$status" 1 "exit status of 'features $fmt $f'"
			[ -z "$fmt" ] || check_json
		done
	done
}

# ------------------------------------------------ crafted header strings

# bats test_tags=asan
@test "features: strings are valid JSON: control bytes escaped, invalid UTF-8 as U+FFFD" {
	# HOSTNAME: u32 len 12; "\x01" "a" "\xff" '"' '\' "\x7f" "é" "z" NUL NUL NUL
	{
		le32 12
		printf '\001a\377"\\\177\303\251z\000\000\000'
	} >"$BATS_TEST_TMPDIR/str.bin"
	assert_eq "$(file_size "$BATS_TEST_TMPDIR/str.bin")" 16 "payload size"
	make_perf_file "$BATS_TEST_TMPDIR/str.data" 3 "$BATS_TEST_TMPDIR/str.bin"
	pdj -j features "$BATS_TEST_TMPDIR/str.data"
	assert_status 0
	jq_all \
		"$(feature HOSTNAME).value == \"\\u0001a\\ufffd\\\"\\\\\\u007f\\u00e9z\"" true \
		"$(feature HOSTNAME) | [.offset, .size]" '[128,16]' \
		'.errors' '[]'
	# the raw JSON text has no control bytes
	if printf '%s' "$output" | LC_ALL=C grep -q $'[\001-\037\177]'; then
		echo "control bytes in the JSON text"
		false
	fi
	pd features "$BATS_TEST_TMPDIR/str.data"
	assert_status 0
	assert_contains "$output" 'value:                  \x01a'
	if printf '%s' "$output" | LC_ALL=C grep -q $'[\001\177]'; then
		echo "raw control bytes in the text output"
		false
	fi
}

# bats test_tags=asan
@test "features: a string longer than its section is an error at the string, exit 1" {
	{
		le32 100
		printf 'abc\000'
	} >"$BATS_TEST_TMPDIR/long.bin"
	make_perf_file "$BATS_TEST_TMPDIR/long.data" 3 "$BATS_TEST_TMPDIR/long.bin"
	pdj -j features "$BATS_TEST_TMPDIR/long.data"
	assert_status 1
	assert_no_signal
	assert_contains "$stderr" "perfdump: $BATS_TEST_TMPDIR/long.data: 0x84: HEADER_HOSTNAME"
	jq_all \
		'[.errors[] | [.offset, (.what | test("HOSTNAME")), (.detail | test("100"))]]' '[[132,true,true]]' \
		"$(feature HOSTNAME).bytes" '{"offset":128,"size":8,"hex":"6400000061626300"}'
}

# bats test_tags=asan
@test "features: a string without its NUL is shown, with a warning naming the feature" {
	{
		le32 8
		printf 'abcdefgh'
	} >"$BATS_TEST_TMPDIR/nonul.bin"
	make_perf_file "$BATS_TEST_TMPDIR/nonul.data" 3 "$BATS_TEST_TMPDIR/nonul.bin"
	pdj -j features "$BATS_TEST_TMPDIR/nonul.data"
	assert_status 0
	jq_all \
		"$(feature HOSTNAME).value" '"abcdefgh"' \
		'.errors' '[]' \
		'[.warnings[] | select(.detail | test("NUL")) | [.offset, (.what | test("HOSTNAME"))]]' '[[132,true]]'
}

# bats test_tags=asan
@test "features: a NRCPUS section too short for its two u32: exit 1, never a signal" {
	printf 'abcd' >"$BATS_TEST_TMPDIR/short.bin"
	make_perf_file "$BATS_TEST_TMPDIR/short.data" 7 "$BATS_TEST_TMPDIR/short.bin"
	pdj -j features "$BATS_TEST_TMPDIR/short.data"
	assert_no_signal
	assert_status 1
	jq_all \
		'[.errors[] | .what | test("NRCPUS")] | any' true \
		'[.features[].name]' '["NRCPUS"]'
}
