/* work_b: a third of work_a's loop (hot_a.c). */
volatile unsigned long sink_b;

void work_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink_b += i * 7;
}
