# bash completion for perfdump(1)                     -*- shell-script -*-
#
# Installed by `make install` as $(PREFIX)/share/bash-completion/completions/perfdump,
# where bash-completion loads it on first use; or: source completion/perfdump.bash
# zsh: autoload -U bashcompinit && bashcompinit && source completion/perfdump.bash
#
# It needs bash only (not the bash-completion package's helpers).
# tests/completion.bats checks it against the code: every command, every
# option of every command, the --type names (the record-type registry),
# the feature names and the values an option's help lists (A|B).

_perfdump_commands="summary header features attrs records stats check buildids profile
	export copy diff help"

_perfdump_global_opts="-j --json -p --pretty -x --hex -h --help -V --version
	--redact --redact=comm --redact-key -J --jobs --no-progress"

# Each command's own options (the global ones apply after a command too).
_perfdump_cmd_opts() {
	case $1 in
	features) echo "-l --list --resolve --symfs --debug-dir --kernel" ;;
	records) echo "--type --event --pid --tid --cpu --time --skip --limit --at
		--order --json-lines --symbols --srcline --symfs --debug-dir --kallsyms
		--vmlinux --no-demangle --strict-build-ids" ;;
	stats) echo "--top" ;;
	check) echo "-b --brief --list-codes" ;;
	buildids) echo "-H --hits --missing --no-resolve --symfs --debug-dir --kernel" ;;
	profile) echo "--by --top --csv --no-children --symfs --debug-dir --vmlinux
		--kallsyms --no-demangle --strict-build-ids" ;;
	export) echo "--to -o --output --event --pid --tid --cpu --time --folded-pid
		--folded-tid --kernel-suffix --jit-suffix --inline --no-inline --period
		--symfs --debug-dir --kallsyms --vmlinux --no-demangle --strict-build-ids" ;;
	diff) echo "--only --profile --offsets -q --brief --symfs --debug-dir
		--vmlinux --kallsyms --no-demangle --strict-build-ids" ;;
	copy) echo "-o --output --force --compress --attr-size --build-ids --event --pid --tid --cpu --time" ;;
	esac
}

# Options whose value is the next word.
_perfdump_arg_opts=" --redact-key -J --jobs --type --event --pid --tid --cpu --time --skip
	--limit --at --order --top --symfs --debug-dir --by --vmlinux --kallsyms
	--to -o --output --only "

# records --type: the record-type registry, names as perfdump takes them
# (any case, or an unambiguous prefix).
_perfdump_record_types="mmap lost comm exit throttle unthrottle fork read sample
	mmap2 aux itrace_start lost_samples switch switch_cpu_wide namespaces
	ksymbol bpf_event cgroup text_poke aux_output_hw_id callchain_deferred
	header_attr header_event_type header_tracing_data header_build_id
	finished_round id_index auxtrace_info auxtrace auxtrace_error thread_map
	cpu_map stat_config stat stat_round event_update time_conv header_feature
	compressed finished_init compressed2 bpf_metadata schedstat_cpu
	schedstat_domain sp_kernel_symbol sp_dso sp_symbol sp_split sp_split_end
	sp_event_id sp_callchain sp_unwinding_result sp_tracing_data"

# features NAME...: the feature names perfdump knows.
_perfdump_features="tracing_data build_id hostname osrelease version arch nrcpus
	cpudesc cpuid total_mem cmdline event_desc cpu_topology numa_topology
	branch_stack pmu_mappings group_desc auxtrace stat cache sample_time
	mem_topology clockid dir_format bpf_prog_info bpf_btf compressed
	cpu_pmu_caps clock_data hybrid_topology pmu_caps cpu_domain_info e_machine
	cln_size sp_file
	sp_meta_info sp_debug_unwind sp_debug_unwind_file sp_file2
	sp_etm_branch_list sp_init_map"

_perfdump_files() {
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_perfdump() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd= i w words=()

	COMPREPLY=()
	# the command: the first word that is no option and no option's value
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-*) continue ;;
		esac
		[[ $_perfdump_arg_opts == *" ${COMP_WORDS[i - 1]} "* ]] && continue
		cmd=$w
		break
	done

	# the values of --order, --by and --type are fixed names; perfdump
	# takes an unambiguous prefix of one too (--by func), and says which
	# name a misspelt one may be (src/choice.c)
	case $prev in
	--order)
		words="file time"
		;;
	--by)
		words="function dso line process thread"
		;;
	--to)
		words="folded pprof chrome"
		;;
	--build-ids)
		words="all hit"
		;;
	--only)
		# a comma-separated list: complete its last name
		local head=${cur%"${cur##*,}"}
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "header features attrs stats profile" -- "${cur##*,}")
		compopt -o nospace 2>/dev/null
		return 0
		;;
	--vmlinux | --kallsyms | -o | --output)
		_perfdump_files "$cur"
		return 0
		;;
	--type)
		# a comma-separated list: complete its last name
		local head=${cur%"${cur##*,}"}
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$_perfdump_record_types" -- "${cur##*,}")
		compopt -o nospace 2>/dev/null
		return 0
		;;
	--symfs | --debug-dir)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return 0
		;;
	--redact-key | -J | --jobs | --event | --pid | --tid | --cpu | --time | --skip | --limit | --at | --top)
		return 0 # a value of the user's
		;;
	esac
	if [ -n "$words" ]; then
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return 0
	fi

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$_perfdump_global_opts $(_perfdump_cmd_opts "$cmd")" -- "$cur")
		return 0
	fi
	case $cmd in
	'')
		# a command, or a file: perfdump FILE shows its summary
		mapfile -t COMPREPLY < <(compgen -W "$_perfdump_commands" -- "$cur")
		local files
		mapfile -t files < <(compgen -f -- "$cur")
		[ ${#files[@]} -gt 0 ] && compopt -o filenames 2>/dev/null
		COMPREPLY+=("${files[@]}")
		;;
	help)
		mapfile -t COMPREPLY < <(compgen -W "$_perfdump_commands" -- "$cur")
		;;
	features)
		_perfdump_files "$cur"
		local names
		mapfile -t names < <(compgen -W "$_perfdump_features" -- "$cur")
		COMPREPLY+=("${names[@]}")
		;;
	*)
		_perfdump_files "$cur"
		;;
	esac
	return 0
}

complete -F _perfdump perfdump
