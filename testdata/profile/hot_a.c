/*
 * The program profile's fixture records (scripts/record-profile-fixtures.sh,
 * tests/profile.bats): work_a (here) runs the loop of work_b (hot_b.c)
 * three times as many times, so it gets about three times the samples.
 */
#include <stdlib.h>

void work_b(unsigned long n);

volatile unsigned long sink_a;

void work_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink_a += i * 7;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000000;

	work_a(3 * n);
	work_b(n);
	return 0;
}
