#!/usr/bin/env bats
# The help texts, the man page and the README say the same things as the
# program: every command and option in --help / 'help CMD' is documented in
# man/perfdump.1, every option the man page documents exists, and the
# README's quick start names the make targets that exist.

load helpers

MAN=man/perfdump.1

# check_recipe: what `make -n check` prints (it runs every sub-make with
# -n: slow), made once per run of this file.
check_recipe() {
	local f=$BATS_FILE_TMPDIR/check.recipe
	[ -s "$f" ] || make -n check >"$f" || return 1
	cat "$f"
}

# The commands listed under "Commands:" in --help, "help" included.
commands() {
	"$PERFDUMP" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'
}

# Every long option in a help text.
long_options() {
	grep -oE -- '--[a-z][a-z-]+' | sort -u
}

# The man page as plain text.
man_text() {
	MANWIDTH=200 man -l "$MAN" 2>/dev/null | col -b
}

@test "the man page renders without warnings" {
	once
	run --separate-stderr man --warnings -l "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || { echo "$stderr"; false; }
}

@test "every command in --help has a section in the man page" {
	once
	local text c
	text=$(man_text)
	for c in $(commands); do
		grep -qE "^ {7}$c( |$)" <<<"$text" || { echo "man page lacks command $c"; false; }
	done
}

@test "every command the man page documents exists" {
	once
	local c
	for c in $(man_text | sed -n '/^COMMANDS/,/^OPTIONS/p' | grep -oE '^ {7}[a-z]+' | tr -d ' '); do
		commands | grep -qx "$c" || { echo "man page documents $c, --help does not list it"; false; }
	done
}

@test "every long option of --help and of each command's help is in the man page" {
	once
	local text o c
	text=$(man_text)
	for o in $("$PERFDUMP" --help | long_options); do
		grep -qF -- "$o" <<<"$text" || { echo "man page lacks $o"; false; }
	done
	for c in $(commands); do
		[ "$c" = help ] && continue
		for o in $("$PERFDUMP" help "$c" | long_options); do
			grep -qF -- "$o" <<<"$text" || { echo "man page lacks $c $o"; false; }
		done
	done
}

@test "every option in the man page's OPTIONS section works" {
	local o
	for o in $(man_text | sed -n '/^OPTIONS/,/^OUTPUT/p' | grep -oE -- '--[a-z]+' | sort -u); do
		case $o in
		--jobs) pd "$o" 2 header testdata/cpu-clock.data ;; # takes a value
		*) pd "$o" header testdata/cpu-clock.data ;;
		esac
		[ "$status" -eq 0 ] || { echo "$o: exit $status: $stderr"; false; }
	done
}

@test "every feature name in the man page is one perfdump knows" {
	once
	local n
	pd features --list testdata/cpu-clock.data
	for n in $(man_text | sed -n '/^FEATURES/,/^EXIT STATUS/p' | grep -oE '^ {7}[A-Z][A-Z_]+' | tr -d ' '); do
		grep -qE "name=$n( |$)" <<<"$output" || { echo "unknown feature $n in the man page"; false; }
	done
}

@test "the README quick start is exactly 'make demo' and 'make check', and both targets exist" {
	once
	run awk '/^## Quick start/ { on = 1; next } /^## / { on = 0 } on && /^    make/ { print $2 }' README.md
	[ "$output" = "demo
check" ]
	make -n demo >/dev/null
	check_recipe >/dev/null
}

@test ".ci/run runs make check, as the README does" {
	once
	grep -qx 'make check' .ci/run
}

@test "make check runs the bats suite, the TSan tests, the mutation test and a fuzz session, as the README says" {
	once
	local recipe
	recipe=$(check_recipe)
	assert_contains "$recipe" "tests/run.sh"
	assert_contains "$recipe" "make check-tsan"
	assert_contains "$(tr '\n' ' ' <README.md)" 'The parallel walk'"'"'s tests then run under ThreadSanitizer (`make check-tsan`'
	assert_contains "$recipe" "make mutate"
	assert_contains "$recipe" "make fuzz FUZZ_SECONDS=4 FUZZ_SEED=1"
	assert_contains "$(tr '\n' ' ' <README.md)" 'Then come the mutation test (`make mutate`) and a short libFuzzer session of every fuzz target (`make fuzz`, 4 seconds each, with a fixed seed'
}

# (make check's first step runs format-check itself: running it here too
# was the same check twice)
@test "make check starts with format-check" {
	once
	local recipe
	recipe=$(check_recipe)
	assert_contains "$recipe" "make format-check"
	assert_contains "$(make -n format-check)" "clang-format --dry-run --Werror"
}

# includes_fail FILE TEXT: a fresh copy of src/ in $tree with TEXT
# appended to FILE (a path under src/), checked by check-includes.py,
# which must fail
includes_fail() {
	rm -rf "$tree" && mkdir -p "$tree" && cp -r src "$tree/"
	printf '%s\n' "$2" >>"$tree/$1"
	run python3 scripts/check-includes.py "$tree"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
}

@test "make check runs include-check: no new include cycle, no include up a layer, one include style, one reader loop" {
	once
	local tree=$BATS_TEST_TMPDIR/tree
	assert_contains "$(check_recipe)" "make include-check"
	run python3 scripts/check-includes.py
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	assert_contains "$output" "0 cycle(s) left"
	# a copy of src/ where siphash.h (included by redact.c) includes
	# redact.h: a new cycle, named by its files
	includes_fail src/fmt/siphash.h '#include "fmt/redact.h"'
	assert_contains "$output" "src/fmt/siphash.h:"
	assert_contains "$output" "cycle: includes src/fmt/redact.h, which closes a cycle of src/fmt/redact src/fmt/siphash"
	# the parser including a formatter's header: a layer broken, named by
	# its two folders
	includes_fail src/lib/analysis/account.c '#include "fmt/json.h"'
	assert_contains "$output" "src/lib/analysis/account.c:"
	assert_contains "$output" "layer: includes src/fmt/json.h (src/lib/analysis may not include src/fmt)"
	# a lower folder of the parser including a higher one's header: the
	# base layer including the session
	includes_fail src/lib/base/arena.c '#include "lib/session/session.h"'
	assert_contains "$output" "src/lib/base/arena.c:"
	assert_contains "$output" "layer: includes src/lib/session/session.h (src/lib/base may not include src/lib/session)"
	# a folder no layer names, and a header named from the including
	# file's folder instead of from src/
	rm -rf "$tree" && mkdir -p "$tree" && cp -r src "$tree/"
	mkdir "$tree/src/lib/extra" && printf 'int extra(void);\n' >"$tree/src/lib/extra/extra.h"
	printf '#include "arena.h"\n' >>"$tree/src/lib/base/strbuf.c"
	run python3 scripts/check-includes.py "$tree"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	assert_contains "$output" "src/lib/extra/extra.h: folder: src/lib/extra is in no layer"
	assert_contains "$output" "src/lib/base/strbuf.c:"
	assert_contains "$output" "style: includes src/lib/base/arena.h as \"arena.h\": name it by its path from src/ (\"lib/base/arena.h\")"
	# an allowed include (an entry added to ALLOWED in a copy of the
	# script): its cycle passes; once the include is gone, the entry fails
	rm -rf "$tree" && mkdir -p "$tree/scripts" && cp -r src "$tree/"
	sed 's|^ALLOWED = {$|&\n    ("src/fmt/siphash.h", "src/fmt/redact.h"): "a test",\n    ("src/fmt/redact.c", "src/fmt/siphash.h"): "a test",|' \
		scripts/check-includes.py >"$tree/scripts/check-includes.py"
	printf '#include "fmt/redact.h"\n' >>"$tree/src/fmt/siphash.h"
	run python3 "$tree/scripts/check-includes.py" "$tree"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	assert_contains "$output" "1 cycle(s) left, each include on them allowed (2)"
	sed -i '/^#include "fmt\/redact.h"$/d' "$tree/src/fmt/siphash.h"
	run python3 "$tree/scripts/check-includes.py" "$tree"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	assert_contains "$output" "src/fmt/siphash.h: allowed include of src/fmt/redact.h is gone"
	# a loop of its own over the reader: records come from the one walk
	includes_fail src/lib/analysis/stats.c \
		"$(printf 'static int f(struct pd_reader *r, struct pd_event *e)\n{\n\treturn pd_reader_next(r, e);\n}')"
	assert_contains "$output" "src/lib/analysis/stats.c:"
	assert_contains "$output" "reader: calls pd_reader_next: records come from a walk"
}

@test "sources cite the kernel, not a document outside the repository" {
	once
	run grep -rnE 'FORMAT\.md|§[0-9]|\btrap [0-9]' src scripts tests/*.bats tests/*.bash \
		testdata/README.md testdata/synthetic/README.md man README.md Makefile
	[ "$status" -eq 1 ] || { echo "$output"; false; }
}

@test "a failing test says its file, line and command, as bats's own trace would (helpers.bash)" {
	once
	# ${at}test: bats would read a test of its own in the heredoc
	local d=$BATS_TEST_TMPDIR/t at=@
	mkdir "$d"
	cat >"$d/f.bats" <<BATS
load $PROJECT_ROOT/tests/helpers
inner() {
	false
}
${at}test "at the test's level" {
	true
	[ 1 = 2 ]
}
${at}test "in a function" {
	inner
}
${at}test "an assertion" {
	assert_eq a b "the letter"
}
${at}test "passes, untraced" {
	trap -p DEBUG >"$d/trap"
}
BATS
	# a bats of its own, not this one's environment
	run env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$HOME" "$BATS_ROOT/bin/bats" --tap "$d/f.bats"
	assert_eq "$output" "1..4
not ok 1 at the test's level
# (in test file $d/f.bats, line 7)
#   \`[ 1 = 2 ]' failed
not ok 2 in a function
# (from function \`inner' in file $d/f.bats, line 3,
#  in test file $d/f.bats, line 10)
#   \`inner' failed
not ok 3 an assertion
# (in test file $d/f.bats, line 13)
#   \`assert_eq a b \"the letter\"' failed
# the letter:
#   expected: b
#   actual:   a
ok 4 passes, untraced" "bats's report"
	assert_empty "$(cat "$d/trap")" "the DEBUG trap in a test"
}

@test "tests tagged asan that sweep, run once, take a few, or weigh peak RSS are tagged normal too (tests/run.sh)" {
	once
	local d=$BATS_TEST_TMPDIR
	run python3 scripts/check-test-tags.py
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# a test of a file tagged asan whole that sweeps, without the tag
	printf '%s\n' '# bats file_tags=asan' '' '@test "x" {' '	sweep' '}' \
		'# bats test_tags=asan' '@test "y" {' '	rss_run o true' '}' \
		'# bats test_tags=asan' '@test "z" {' '	true' '}' >"$d/t.bats"
	run python3 scripts/check-test-tags.py "$d/t.bats"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	assert_eq "$output" "$d/t.bats:3: tagged asan, needs normal: @test \"x\" {
$d/t.bats:7: tagged asan, needs normal: @test \"y\" {"
	run python3 scripts/check-test-tags.py --fix "$d/t.bats"
	assert_eq "$output" "2 tests tagged normal"
	run python3 scripts/check-test-tags.py "$d/t.bats"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	assert_eq "$(grep -c 'test_tags=.*normal' "$d/t.bats")" 2
}
