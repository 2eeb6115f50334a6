// The C++ program of inl-cxx.data (scripts/record-symbols-fixtures.sh,
// tests/srcline.bats): built with g++ -g -O2, Acc<unsigned long>::add is
// inlined into run, so a DWARF-unwound stack has an inlined call whose
// name perf demangles from its linkage name.  No exceptions, RTTI or C++
// library calls: it needs libc alone.
#include <stdlib.h>

namespace ns {
template <typename T> struct Acc {
	T v;
	void add(T x) { v += (x ^ (x >> 7)) * 2654435761u; }
};
} // namespace ns

volatile unsigned long sink;

__attribute__((noinline)) void run(unsigned long n)
{
	ns::Acc<unsigned long> a{0};

	for (unsigned long i = 0; i < n; i++) {
		a.add(i);
		sink = a.v;
	}
}

int main(int argc, char **argv)
{
	run(argc > 1 ? strtoul(argv[1], NULL, 0) : 30000000);
	return 0;
}
