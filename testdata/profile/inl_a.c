/*
 * The program of the fixtures of records --symbols --srcline and DWARF
 * unwinding (scripts/record-symbols-fixtures.sh, tests/symbols.bats):
 * built with -g -O2; loop_a (here) runs three times the loop of loop_b
 * (inl_b.c); both inline mix (inl.h).  Built with -DINL_NOLIBC, main is
 * left out: inl_start.c's _start runs the loops without the C library.
 */
#include <stdlib.h>

#include "inl.h"

void loop_b(unsigned long n);

volatile unsigned long sink_a;

__attribute__((noinline)) void loop_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink_a += mix(i);
}

#ifndef INL_NOLIBC
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000000;

	loop_a(3 * n);
	loop_b(n);
	return 0;
}
#endif
