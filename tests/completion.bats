#!/usr/bin/env bats
# Shell completion, and the sync test bpftool's test_bpftool_synctypes.py
# is the model of: every command and every option the code defines is in
# --help, in the man page and in the completion, and the completion offers
# nothing the code does not define.  The code is read generically (the
# command table's names, the getopt_long tables of src/cli.c, src/main.c
# and each src/cmd_*.c), so a command or option added anywhere is checked.

load helpers

COMP=completion/perfdump.bash
MAN=man/perfdump.1

# complete WORD...: COMPREPLY for the command line "WORD..." (the last
# word is the one being completed), one per line.
complete_words() {
	# shellcheck disable=SC1090
	bash -c 'source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_perfdump; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@" 2>/dev/null
}

# The commands the code defines: each src/cmd_*.c's `.name = "NAME"`.
code_commands() {
	sed -n 's/^[[:space:]]*\.name = "\([a-z-]*\)",$/\1/p' src/cmd_*.c | sort -u
}

# code_options FILE...: the long options of the getopt_long tables in
# FILE ("--name"), and the short ones their val gives ('c' -> "-c").
code_options() {
	grep -hoE '\{"[a-z][a-z0-9-]*", *(no|required|optional)_argument, *NULL, *[^}]*\}' "$@" |
		sed -E "s/^\{\"([^\"]*)\".*/--\1/; t; d"
	grep -hoE '\{"[a-z][a-z0-9-]*", *(no|required|optional)_argument, *NULL, *'"'.'"' *\}' "$@" |
		sed -E "s/.*'(.)' *\}$/-\1/"
	# the symbol options' entries, one table for the commands that take
	# them (SYM_WHERE_LONGOPTS, src/perfdump.h)
	if grep -q 'SYM_WHERE_LONGOPTS,' "$@"; then
		sed -n '/^#define SYM_WHERE_LONGOPTS/,/clang-format on/p' src/perfdump.h |
			grep -oE '\{"[a-z][a-z0-9-]*"' | sed 's/^{"/--/; s/"$//'
	fi
}

global_options() {
	code_options src/cli.c src/main.c | sort -u
}

# The file that defines command NAME.
cmd_file() {
	grep -l "^[[:space:]]*\.name = \"$1\",\$" src/cmd_*.c
}

man_text() {
	MANWIDTH=200 man -l "$MAN" 2>/dev/null | col -b
}

# has_option TEXT OPT: OPT appears in TEXT as an option (not inside a word);
# bash's own regex, no grep to start (the sync tests ask this hundreds of
# times).  A newline is one of the characters around OPT, so a line's start
# or end is too.
has_option() {
	local re="(^|[^a-zA-Z0-9-])$2([^a-zA-Z0-9-]|\$)"
	[[ $1 =~ $re ]]
}

# has_line TEXT LINE: TEXT has exactly this line (grep -qx without a grep).
has_line() {
	[[ $'\n'$1$'\n' == *$'\n'"$2"$'\n'* ]]
}

@test "completion: the code defines the commands and options read here (the reader works)" {
	once
	local cmds
	cmds=$(code_commands | tr '\n' ' ')
	assert_contains "$cmds" "header "
	assert_contains "$cmds" "records "
	assert_contains "$(global_options | tr '\n' ' ')" "--json --no-progress --pretty --redact --redact-key "
	assert_contains "$(code_options "$(cmd_file records)" | tr '\n' ' ')" "--type --event "
	assert_contains "$(code_options "$(cmd_file features)" | tr '\n' ' ')" "-l"
}

@test "completion: every command of the code is in --help, the man page and the completion" {
	once
	local help man comp c
	help=$("$PERFDUMP" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
	man=$(man_text)
	comp=$(complete_words perfdump "")
	for c in $(code_commands); do
		has_line "$help" "$c" || { echo "--help lacks command $c"; false; }
		grep -qE "^ {7}$c( |$)" <<<"$man" || { echo "the man page lacks command $c"; false; }
		has_line "$comp" "$c" || { echo "the completion lacks command $c"; false; }
	done
	# and the completion offers no command the code lacks
	for c in $(complete_words perfdump "" | grep -vx help); do
		[ -e "$c" ] || code_commands | grep -qx "$c" || { echo "the completion offers $c"; false; }
	done
}

@test "completion: every global option of the code is in --help, the man page and the completion" {
	once
	local help man comp o
	help=$("$PERFDUMP" --help)
	man=$(man_text)
	comp=$(complete_words perfdump -)
	for o in $(global_options); do
		has_option "$help" "$o" || { echo "--help lacks $o"; false; }
		has_option "$man" "$o" || { echo "the man page lacks $o"; false; }
		has_line "$comp" "$o" || { echo "the completion lacks $o"; false; }
	done
}

@test "completion: every option of every command is in its help, the man page and the completion" {
	once
	local c o help man comp code
	man=$(man_text)
	for c in $(code_commands); do
		help=$("$PERFDUMP" help "$c")
		comp=$(complete_words perfdump "$c" -)
		code=$( (cmd_options=$(code_options "$(cmd_file "$c")") && printf '%s\n' "$cmd_options"; global_options) | sort -u)
		for o in $(code_options "$(cmd_file "$c")"); do
			has_option "$help" "$o" || { echo "'perfdump help $c' lacks $o"; false; }
			has_option "$man" "$o" || { echo "the man page lacks $c $o"; false; }
			has_line "$comp" "$o" || { echo "the completion lacks $c $o"; false; }
		done
		# the completion offers only options the code has
		for o in $comp; do
			has_line "$code" "${o%%=*}" || { echo "the completion offers $c $o"; false; }
		done
	done
}

@test "completion: the values an option's help lists (--opt A|B) are offered after it" {
	once
	local c line o v comp n=0
	for c in $(code_commands); do
		while read -r o v; do
			comp=$(complete_words perfdump "$c" "$o" "")
			for v in ${v//|/ }; do
				has_line "$comp" "$v" || { echo "$c $o: the completion lacks $v"; false; }
				n=$((n + 1))
			done
		done < <("$PERFDUMP" help "$c" | grep -oE -- '--[a-z][a-z-]* [a-z0-9_-]+(\|[a-z0-9_-]+)+' | sort -u)
	done
	[ "$n" -ge 2 ] # records --order file|time at least
}

@test "completion: --type offers every name of the record-type registry, and only those" {
	local want
	want=$(sed -nE 's/^[[:space:]]*REC\(([A-Z0-9_]+),.*/\1/p; s/^[[:space:]]*SP\(([A-Z0-9_]+)\).*/SP_\1/p' src/lib/format/record_types.c |
		tr 'A-Z' 'a-z' | LC_ALL=C sort)
	[ "$(wc -l <<<"$want")" -ge 40 ]
	assert_eq "$(complete_words perfdump records --type "" | LC_ALL=C sort)" "$want" "--type names"
	# each one is a --type perfdump takes
	pd records --type "$(tr '\n' ',' <<<"$want" | sed 's/,$//')" --limit 1 testdata/cpu-clock.data
	assert_status 0
	# a list: the last name is completed
	assert_eq "$(complete_words perfdump records --type sample,mmap | tr '\n' ' ')" "sample,mmap sample,mmap2 "
}

@test "completion: features offers every feature name perfdump knows, and files" {
	local want
	pd features --list testdata/cpu-clock.data
	want=$(sed -n 's/.*name=\([A-Z0-9_]*\) .*/\1/p' <<<"$output" | tr 'A-Z' 'a-z' | LC_ALL=C sort)
	[ "$(wc -l <<<"$want")" -ge 30 ]
	assert_eq "$(complete_words perfdump features "" | grep -v / | grep -vE '^\.|[A-Z]' | LC_ALL=C sort | grep -xF -f <(printf '%s\n' "$want"))" "$want" "feature names"
	assert_eq "$(complete_words perfdump features host)" "hostname"
}

@test "completion: files after a command, and as the first word (perfdump FILE)" {
	once
	assert_eq "$(complete_words perfdump header testdata/cpu-cl)" "testdata/cpu-clock.data"
	assert_eq "$(complete_words perfdump -j testdata/cpu-cl)" "testdata/cpu-clock.data"
	assert_eq "$(complete_words perfdump rec)" "records"
	assert_eq "$(complete_words perfdump help st)" "stats"
	# an option's value is no command: after it, the command is completed
	assert_eq "$(complete_words perfdump --redact-key k sta)" "stats"
	assert_eq "$(complete_words perfdump records --pid "")" ""
}

@test "completion: make install puts it where bash-completion looks" {
	once
	local d=$BATS_TEST_TMPDIR/root
	run make -s install DESTDIR="$d" PREFIX=/usr
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -f "$d/usr/share/bash-completion/completions/perfdump" ]
	cmp "$d/usr/share/bash-completion/completions/perfdump" "$COMP"
	bash -n "$COMP"
}
