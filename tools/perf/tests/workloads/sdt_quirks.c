// SPDX-License-Identifier: MIT
/*
 * Hand-written SDT notes with operands gcc rarely emits, at probe sites
 * whose register values are fixed by inline asm: the high byte %ah, an
 * immediate, a %rip-relative global, an argument wider than 8 bytes, an
 * unknown register and a scaled index. Prints the expected values.
 */
#include <stdio.h>

long quirk_global = 0x1122334455667788;

#define NOTE(name, args)                                                      \
	".pushsection .note.stapsdt,\"?\",\"note\"\n"                         \
	".balign 4\n"                                                         \
	".4byte 992f-991f, 994f-993f, 3\n"                                    \
	"991: .asciz \"stapsdt\"\n"                                           \
	"992: .balign 4\n"                                                    \
	"993: .8byte 990b\n"                                                  \
	".8byte _.stapsdt.base\n"                                             \
	".8byte 0\n"                                                          \
	".asciz \"quirk\"\n"                                                  \
	".asciz \"" name "\"\n"                                               \
	".asciz \"" args "\"\n"                                               \
	"994: .balign 4\n"                                                    \
	".popsection\n"

__asm__(".ifndef _.stapsdt.base\n"
	".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"
	".weak _.stapsdt.base\n.hidden _.stapsdt.base\n"
	"_.stapsdt.base: .space 1\n"
	".size _.stapsdt.base, 1\n"
	".popsection\n.endif\n");

int main(int argc, char **argv)
{
	int n = argc > 1 ? argc : 3;

	(void)argv;

	for (int i = 0; i < n; i++) {
		__asm__ volatile("movq $0x1234, %%rax\n"
				 "movq $0x7f, %%rbx\n"
				 "990: nop\n"
				 NOTE("highbyte", "1@%%ah 1@%%al -1@%%bh 8@%%rbx")
				 ::: "rax", "rbx", "memory");
		__asm__ volatile("movq $5, %%rcx\n"
				 "990: nop\n"
				 NOTE("consts", "-4@$-42 4@$7 8@%%rcx")
				 ::: "rcx", "memory");
		__asm__ volatile("990: nop\n"
				 NOTE("ripglobal", "8@quirk_global(%%rip) 4@quirk_global+4(%%rip)")
				 ::: "memory");
		__asm__ volatile("movq $9, %%rdx\n"
				 "990: nop\n"
				 NOTE("wide", "16@%%xmm0 8@%%rdx -16@8(%%rsp) 4@%%edx")
				 ::: "rdx", "memory");
		__asm__ volatile("movq $11, %%rsi\n"
				 "990: nop\n"
				 NOTE("badregs", "8@%%zzz 8@(%%rax,%%rsi,8) 8@%%rsi")
				 ::: "rsi", "memory");
	}
	printf("fire highbyte %d 18 52 0 127\n", n);
	printf("fire consts %d -42 7 5\n", n);
	printf("fire ripglobal %d %ld %ld\n", n, quirk_global, quirk_global >> 32);
	printf("fire wide %d 9 9\n", n);
	printf("fire badregs %d 11\n", n);
	return 0;
}
