/* mix: inlined into both loops (inl_a.c, inl_b.c) at -O2, so their
 * samples have inlined frames (records --srcline, issue 25). */
static inline unsigned long mix(unsigned long x)
{
	x ^= x >> 7;
	return x * 2654435761u;
}
