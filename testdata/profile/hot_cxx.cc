/*
 * The C++ program of the demangling fixture (scripts/record-symbols-
 * fixtures.sh, tests/symbols.bats, tests/profile.bats): each function
 * runs the same loop, so each gets about a tenth of the samples, under a
 * name of the kind perf demangles: a function in an anonymous namespace,
 * an operator, a method, a function template, a lambda, a clone GCC makes
 * (.constprop), and functions under Rust's mangled names: legacy ones
 * (_ZN...17h<hash>E, one with a $-escaped path, one whose "hash" has all
 * 16 hex digits) and a v0 one (_R...).  noipa: not inlined, not folded.
 * Walker::step calls operator+, which calls spin: the names are callers'
 * frames too (a leaf sets up no frame: its caller's is not in the chain).
 */
#include <stdlib.h>

volatile unsigned long sink;

#define LOOP(n)                                   \
	for (unsigned long i = 0; i < (n); i++) \
	sink += i * 7

namespace
{
__attribute__((noipa)) void spin(unsigned long n)
{
	LOOP(n);
}
} // namespace

namespace geo
{
struct Vec {
	unsigned long x, y;
	Vec operator+(const Vec &o) const;
};

__attribute__((noipa)) Vec Vec::operator+(const Vec &o) const
{
	LOOP(o.x);
	spin(o.x);
	return {x + o.x, y + o.y};
}

class Walker
{
      public:
	void step(unsigned long n, const char *why);
};

__attribute__((noipa)) void Walker::step(unsigned long n, const char *why)
{
	Vec a{1, 2}, b{n, 3};

	LOOP(n + !why);
	a = a + b;
	sink += a.y;
}

template <typename T, int K> __attribute__((noipa)) T scaled(T n)
{
	LOOP(n);
	return n * K;
}

/* one caller, a constant k: GCC specializes it (tally.constprop.0) */
static __attribute__((noinline)) void tally(unsigned long n, unsigned long k)
{
	LOOP(n * k / 3);
}
} // namespace geo

/* Rust's names for C functions: "core::fmt::write", "<alloc::vec::Vec<T>
 * as core::ops::drop::Drop>::drop", "std::io::stdio::_print" and v0's
 * "mycrate::foo::bar" */
extern "C" {
void rust_write(unsigned long n) __asm__("_ZN4core3fmt5write17hb3f5c9d4e6f7a8b2E");
void rust_drop(unsigned long n) __asm__(
	"_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$"
	"4drop17h6a9ab5c0b6b6c2e1E");
void rust_print(unsigned long n) __asm__("_ZN3std2io5stdio6_print17h0123456789abcdefE");
void rust_v0(unsigned long n) __asm__("_RNvNtCs1234_7mycrate3foo3bar");
}

__attribute__((noipa)) void rust_write(unsigned long n)
{
	LOOP(n);
}

__attribute__((noipa)) void rust_drop(unsigned long n)
{
	LOOP(n);
}

__attribute__((noipa)) void rust_print(unsigned long n)
{
	LOOP(n);
}

__attribute__((noipa)) void rust_v0(unsigned long n)
{
	LOOP(n);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000;
	auto burn = [](unsigned long k) __attribute__((noipa)) { LOOP(k); };
	geo::Walker w;

	w.step(n, "x");
	geo::scaled<unsigned long, 3>(n);
	geo::tally(n, 3);
	burn(n);
	rust_write(n);
	rust_drop(n);
	rust_print(n);
	rust_v0(n);
	return 0;
}
