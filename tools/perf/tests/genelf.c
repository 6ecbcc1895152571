// SPDX-License-Identifier: MIT
/*
 * The ELF files genelf writes, checked with the real tools: readelf and
 * eu-readelf (headers, sections, symbols, notes, DWARF) must not warn,
 * objdump -d must decode our code bytes, addr2line -i (binutils) and
 * eu-addr2line -i (elfutils) must give file:line and the inline chain.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "tests/symbol-helpers.h"
#include "tests/tests.h"
#include "util/genelf.h"
#include "util/util.h"

#define CODE_ADDR 0x7f1234560000ull

/* push rbp; mov rbp,rsp; nop; nopl (rax); mov eax,42; pop rbp; ret */
static const unsigned char code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x90, 0x0f, 0x1f, 0x00, 0xb8, 0x2a, 0x00, 0x00, 0x00, 0x5d, 0xc3,
};

static bool quiet_tool(const char *cmd)
{
	char *out = sym_test__run(cmd);
	bool ok = out && !strcasestr(out, "warning") && !strcasestr(out, "error") &&
		  !strcasestr(out, "invalid") && !strcasestr(out, "corrupt");

	if (out && !ok)
		fprintf(stderr, "%s complained:\n%s\n", cmd, out);
	free(out);
	return ok;
}

static const struct genelf_frame f_hot10[] = { { "LFoo;hot()V", "Foo.java", 10 } };
static const struct genelf_frame f_helper[] = {
	{ "LBar;helper()I", "Bar.java", 20 }, { "LFoo;hot()V", "Foo.java", 12 } };
static const struct genelf_frame f_leaf[] = {
	{ "LBaz;leaf()I", "Baz.java", 30 }, { "LBar;helper()I", "Bar.java", 21 },
	{ "LFoo;hot()V", "Foo.java", 12 } };
static const struct genelf_frame f_hot13[] = { { "LFoo;hot()V", "Foo.java", 13 } };

static int write_test_elf(const char *path, struct genelf_image *img, bool with_debug)
{
	static const struct genelf_line lines[] = {
		{ CODE_ADDR + 0, 10, "Foo.java" }, { CODE_ADDR + 4, 11, "Foo.java" },
		{ CODE_ADDR + 5, 20, "Bar.java" }, { CODE_ADDR + 8, 30, "Baz.java" },
		{ CODE_ADDR + 13, 13, "Foo.java" },
	};
	/* deliberately unsorted: the agent's pcs come in the VM's order */
	static const struct genelf_inline_pc pcs[] = {
		{ CODE_ADDR + 5, 2, f_helper }, { CODE_ADDR + 0, 1, f_hot10 },
		{ CODE_ADDR + 8, 3, f_leaf }, { CODE_ADDR + 13, 1, f_hot13 },
	};
	struct genelf_input in = {
		.name = "LFoo;hot()V", .code = code, .code_size = sizeof(code), .code_addr = CODE_ADDR,
	};
	struct stat st;
	int dfd, ret;

	if (with_debug) {
		in.lines = lines;
		in.nr_lines = ARRAY_SIZE(lines);
		in.pcs = pcs;
		in.nr_pcs = ARRAY_SIZE(pcs);
	}
	if (genelf__build(&in, img))
		return -1;
	dfd = open(".", O_DIRECTORY | O_RDONLY);
	ret = genelf__write_at(dfd, path, img, &st);
	if (ret == 1)
		ret = 0;
	close(dfd);
	return ret;
}

static int test__genelf_tools(void)
{
	struct genelf_image img = { 0 };
	char *out, *cmd, *p;
	uint64_t a;

	if (!sym_test__have("readelf") || !sym_test__have("objdump") || !sym_test__have("addr2line")) {
		fprintf(stderr, "binutils not installed\n");
		return TEST_SKIP;
	}
	TEST_ASSERT_VAL("build+write", write_test_elf("jitted-1-1.so", &img, true) == 0);

	TEST_ASSERT_VAL("readelf -a quiet", quiet_tool("readelf -a -W jitted-1-1.so 2>&1"));
	TEST_ASSERT_VAL("readelf DWARF quiet",
			quiet_tool("readelf --debug-dump=info,abbrev,line,decodedline jitted-1-1.so 2>&1"));
	if (sym_test__have("eu-readelf")) {
		TEST_ASSERT_VAL("eu-readelf -a quiet", quiet_tool("eu-readelf -a jitted-1-1.so 2>&1"));
		TEST_ASSERT_VAL("eu-readelf DWARF quiet",
				quiet_tool("eu-readelf --debug-dump=info --debug-dump=line jitted-1-1.so 2>&1"));
		if (sym_test__have("eu-elflint")) {
			out = sym_test__run("eu-elflint --gnu-ld jitted-1-1.so 2>&1");
			TEST_ASSERT_VAL("eu-elflint: No errors", out && !strcmp(out, "No errors\n"));
			free(out);
		}
	}

	/* the symbol, and the build-id note readelf decodes to our bytes */
	out = sym_test__run("readelf -sn -W jitted-1-1.so 2>&1");
	TEST_ASSERT_VAL("readelf -s", out && strstr(out, "FUNC") && strstr(out, "LFoo;hot()V"));
	{
		char hex[41];

		for (int i = 0; i < GENELF_BUILD_ID_SIZE; i++)
			sprintf(hex + 2 * i, "%02x", img.build_id[i]);
		TEST_ASSERT_VAL("build-id note", strstr(out, hex) != NULL);
	}
	free(out);

	/* objdump must decode exactly our instructions at the text offset */
	out = sym_test__run("objdump -d jitted-1-1.so 2>&1");
	TEST_ASSERT_VAL("objdump ran", out);
	TEST_ASSERT_VAL("objdump symbol", strstr(out, "<LFoo;hot()V>:"));
	TEST_ASSERT_VAL("objdump push", strstr(out, "55 ") && strstr(out, "push   %rbp"));
	TEST_ASSERT_VAL("objdump mov", strstr(out, "b8 2a 00 00 00") && strstr(out, "mov    $0x2a,%eax"));
	TEST_ASSERT_VAL("objdump ret", strstr(out, "c3") && strstr(out, "ret"));
	free(out);

	/* addr2line -i at the 3-deep inline site: leaf location, then each call site */
	a = img.text_offset + 8;
	cmd = xasprintf("addr2line -i -f -e jitted-1-1.so %#" PRIx64 " 2>&1", a);
	out = sym_test__run(cmd);
	free(cmd);
	TEST_ASSERT_VAL("addr2line ran", out);
	p = out;
	TEST_ASSERT_VAL("leaf name", (p = strstr(p, "LBaz;leaf()I")));
	TEST_ASSERT_VAL("leaf line", (p = strstr(p, "Baz.java:30")));
	TEST_ASSERT_VAL("middle name", (p = strstr(p, "LBar;helper()I")));
	TEST_ASSERT_VAL("middle call site", (p = strstr(p, "Bar.java:21")));
	TEST_ASSERT_VAL("root name", (p = strstr(p, "LFoo;hot()V")));
	TEST_ASSERT_VAL("root call site", (p = strstr(p, "Foo.java:12")));
	free(out);

	/* a pc that is not inlined: only the method's own line */
	cmd = xasprintf("addr2line -i -f -e jitted-1-1.so %#" PRIx64 " 2>&1", img.text_offset + 4);
	out = sym_test__run(cmd);
	free(cmd);
	TEST_ASSERT_VAL("plain pc", out && strstr(out, "LFoo;hot()V") && strstr(out, "Foo.java:11") &&
			!strstr(out, "Bar.java"));
	free(out);

	if (sym_test__have("eu-addr2line")) {
		cmd = xasprintf("eu-addr2line -i -f -e jitted-1-1.so %#" PRIx64 " 2>&1", a);
		out = sym_test__run(cmd);
		free(cmd);
		TEST_ASSERT_VAL("eu-addr2line chain", out && (p = strstr(out, "Baz.java:30")) &&
				(p = strstr(p, "Bar.java:21")) && strstr(p, "Foo.java:12"));
		free(out);
	}

	/* rebuilding the same input reuses the file; other contents replace it */
	{
		struct stat st1, st2;

		TEST_ASSERT_VAL("stat", stat("jitted-1-1.so", &st1) == 0);
		TEST_ASSERT_VAL("rewrite same", write_test_elf("jitted-1-1.so", &img, true) == 0);
		TEST_ASSERT_VAL("stat", stat("jitted-1-1.so", &st2) == 0);
		TEST_ASSERT_EQUAL("same inode", st2.st_ino, st1.st_ino);
		TEST_ASSERT_VAL("rewrite other", write_test_elf("jitted-1-1.so", &img, false) == 0);
		out = sym_test__run("readelf -S -W jitted-1-1.so 2>&1");
		TEST_ASSERT_VAL("no debug now", out && !strstr(out, ".debug_line"));
		free(out);
	}

	/* a symlink in place of the file is refused, its target untouched */
	{
		char buf[8] = { 0 };
		int fd;

		fd = open("victim", O_CREAT | O_WRONLY | O_TRUNC, 0644);
		TEST_ASSERT_VAL("victim", fd >= 0 && write(fd, "keep", 4) == 4);
		close(fd);
		TEST_ASSERT_VAL("symlink", symlink("victim", "jitted-1-2.so") == 0);
		TEST_ASSERT_VAL("refused", write_test_elf("jitted-1-2.so", &img, true) == -1);
		fd = open("victim", O_RDONLY);
		TEST_ASSERT_VAL("victim kept", fd >= 0 && read(fd, buf, sizeof(buf)) == 4 && !memcmp(buf, "keep", 4));
		close(fd);
	}
	genelf__image_release(&img);
	return TEST_OK;
}

DEFINE_SUITE("genelf: jitted ELF read by readelf, eu-readelf, objdump, addr2line -i", test__genelf_tools);

/* one file per dump: two functions at their own offsets, each with lines and inlining */
static int test__genelf_multi_tools(void)
{
	static const struct genelf_line lines[] = {
		{ CODE_ADDR + 0, 10, "Foo.java" }, { CODE_ADDR + 4, 11, "Foo.java" },
		{ CODE_ADDR + 5, 20, "Bar.java" }, { CODE_ADDR + 8, 30, "Baz.java" },
		{ CODE_ADDR + 13, 13, "Foo.java" },
	};
	static const struct genelf_inline_pc pcs[] = {
		{ CODE_ADDR + 5, 2, f_helper }, { CODE_ADDR + 0, 1, f_hot10 },
		{ CODE_ADDR + 8, 3, f_leaf }, { CODE_ADDR + 13, 1, f_hot13 },
	};
	struct genelf_input in = {
		.name = "LFoo;hot()V", .code = code, .code_size = sizeof(code), .code_addr = CODE_ADDR,
		.lines = lines, .nr_lines = ARRAY_SIZE(lines), .pcs = pcs, .nr_pcs = ARRAY_SIZE(pcs),
	};
	struct genelf_input plain = {
		.name = "LQux;cold()V", .code = code, .code_size = sizeof(code), .code_addr = 0x1000,
	};
	struct genelf_multi *m;
	uint8_t bid[GENELF_BUILD_ID_SIZE];
	uint64_t off1, off2, off3;
	struct stat st, st0;
	char *out, *cmd, *p;
	int dfd;

	if (!sym_test__have("readelf") || !sym_test__have("objdump") || !sym_test__have("addr2line")) {
		fprintf(stderr, "binutils not installed\n");
		return TEST_SKIP;
	}
	dfd = open(".", O_DIRECTORY | O_RDONLY);
	m = genelf_multi__create(dfd, "jitted-7.so");
	TEST_ASSERT_VAL("create", m);
	TEST_ASSERT_VAL("fstat", genelf_multi__fstat(m, &st0) == 0);
	off1 = genelf_multi__add(m, &plain);
	off2 = genelf_multi__add(m, &in);
	off3 = genelf_multi__add(m, &plain);
	TEST_ASSERT_VAL("offsets", off1 && off2 > off1 && off3 > off2 && off2 % 16 == 0);
	TEST_ASSERT_VAL("finish", genelf_multi__finish(m, &st, bid) == 0);
	close(dfd);
	TEST_ASSERT_EQUAL("inode kept by the rename", st.st_ino, st0.st_ino);

	TEST_ASSERT_VAL("readelf -a quiet", quiet_tool("readelf -a -W jitted-7.so 2>&1"));
	TEST_ASSERT_VAL("readelf DWARF quiet",
			quiet_tool("readelf --debug-dump=info,abbrev,line,aranges jitted-7.so 2>&1"));
	if (sym_test__have("eu-readelf")) {
		TEST_ASSERT_VAL("eu-readelf -a quiet", quiet_tool("eu-readelf -a jitted-7.so 2>&1"));
		TEST_ASSERT_VAL("eu-readelf DWARF quiet",
				quiet_tool("eu-readelf --debug-dump=info --debug-dump=line jitted-7.so 2>&1"));
	}
	if (sym_test__have("eu-elflint")) {
		out = sym_test__run("eu-elflint --gnu-ld jitted-7.so 2>&1");
		TEST_ASSERT_VAL("eu-elflint: No errors", out && !strcmp(out, "No errors\n"));
		free(out);
	}
	out = sym_test__run("objdump -d jitted-7.so 2>&1");
	TEST_ASSERT_VAL("objdump both names", out && strstr(out, "<LFoo;hot()V>:") && strstr(out, "<LQux;cold()V>:"));
	free(out);

	cmd = xasprintf("addr2line -i -f -e jitted-7.so %#" PRIx64 " %#" PRIx64 " 2>&1", off2 + 8, off3 + 1);
	out = sym_test__run(cmd);
	free(cmd);
	TEST_ASSERT_VAL("addr2line ran", out);
	p = out;
	TEST_ASSERT_VAL("leaf", (p = strstr(p, "LBaz;leaf()I")) && (p = strstr(p, "Baz.java:30")));
	TEST_ASSERT_VAL("middle", (p = strstr(p, "LBar;helper()I")) && (p = strstr(p, "Bar.java:21")));
	TEST_ASSERT_VAL("root", (p = strstr(p, "LFoo;hot()V")) && (p = strstr(p, "Foo.java:12")));
	TEST_ASSERT_VAL("function without lines", strstr(p, "LQux;cold()V") && strstr(p, "??"));
	free(out);
	if (sym_test__have("eu-addr2line")) {
		cmd = xasprintf("eu-addr2line -i -f -e jitted-7.so %#" PRIx64 " 2>&1", off2 + 8);
		out = sym_test__run(cmd);
		free(cmd);
		TEST_ASSERT_VAL("eu-addr2line chain", out && (p = strstr(out, "Baz.java:30")) &&
				(p = strstr(p, "Bar.java:21")) && strstr(p, "Foo.java:12"));
		free(out);
	}

	/* a symlink at the final name is refused, the temporary file removed */
	TEST_ASSERT_VAL("symlink", symlink("victim2", "jitted-8.so") == 0);
	dfd = open(".", O_DIRECTORY | O_RDONLY);
	m = genelf_multi__create(dfd, "jitted-8.so");
	TEST_ASSERT_VAL("create 2", m && genelf_multi__add(m, &plain));
	TEST_ASSERT_VAL("refused", genelf_multi__finish(m, &st, bid) == -1);
	close(dfd);
	out = sym_test__run("ls -a");
	TEST_ASSERT_VAL("no temporary left", out && !strstr(out, ".tmp"));
	free(out);
	TEST_ASSERT_VAL("victim not created", access("victim2", F_OK) != 0);
	return TEST_OK;
}

DEFINE_SUITE("genelf: one ELF for many jitted functions, read by readelf, eu-readelf, objdump, addr2line -i",
	     test__genelf_multi_tools);
