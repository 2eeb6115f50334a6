/* loop_b: a third of loop_a's loop (inl_a.c). */
#include "inl.h"

volatile unsigned long sink_b;

__attribute__((noinline)) void loop_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink_b += mix(i);
}
