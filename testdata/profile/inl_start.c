/*
 * _start of inl-nolibc: the loops of inl_a.c and inl_b.c without the C
 * library, so that a DWARF unwinding of its stacks ends at the outermost
 * frame with nothing but this program's CFI (tests/symbols.bats):
 * _start says its return address is undefined, as glibc's does.
 */
void loop_a(unsigned long n);
void loop_b(unsigned long n);

#define N 30000000ul

__attribute__((noreturn, used)) void start_c(void)
{
	loop_a(3 * N);
	loop_b(N);
	__asm__ volatile("mov $60, %eax\n\txor %edi, %edi\n\tsyscall");
	__builtin_unreachable();
}

__asm__(".globl _start\n"
	".type _start, @function\n"
	"_start:\n"
	".cfi_startproc\n"
	".cfi_undefined rip\n"
	"xor %ebp, %ebp\n"
	"and $-16, %rsp\n"
	"call start_c\n"
	"hlt\n"
	".cfi_endproc\n"
	".size _start, . - _start\n");
