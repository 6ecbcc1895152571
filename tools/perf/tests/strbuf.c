// SPDX-License-Identifier: MIT
/*
 * strbuf and the grow-array helper: contents, the NUL kept after the data,
 * growth across many small appends and one large one, formatting longer than
 * the first guess, reuse after reset, detach, reading a pipe to EOF, and
 * arrays grown one element at a time keeping their contents.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests.h"
#include "util/strbuf.h"

static int test__strbuf_text(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *s, big[300];
	size_t len;

	TEST_ASSERT_VAL("empty buffer reads as \"\"", !strcmp(strbuf_str(&sb), "") && sb.len == 0);
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%d:%s", 42, "x");
	TEST_ASSERT_VAL("appended text", !strcmp(strbuf_str(&sb), "abc-42:x"));
	TEST_ASSERT_EQUAL("length", sb.len, 8);
	TEST_ASSERT_VAL("NUL after the data", sb.buf[sb.len] == 0 && sb.alloc > sb.len);

	/* formatted output longer than the first vsnprintf attempt */
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	strbuf_reset(&sb);
	TEST_ASSERT_VAL("reset empties", sb.len == 0 && !strcmp(strbuf_str(&sb), ""));
	strbuf_addf(&sb, "<%s>", big);
	TEST_ASSERT_EQUAL("long format length", sb.len, sizeof(big) + 1);
	TEST_ASSERT_VAL("long format contents", sb.buf[0] == '<' && sb.buf[sb.len - 1] == '>' &&
			!strncmp(sb.buf + 1, big, sizeof(big) - 1) && sb.buf[sb.len] == 0);

	strbuf_setlen(&sb, 3);
	TEST_ASSERT_VAL("setlen truncates", !strcmp(strbuf_str(&sb), "<qq"));
	s = strbuf_detach(&sb, &len);
	TEST_ASSERT_VAL("detach hands over the string", len == 3 && !strcmp(s, "<qq"));
	TEST_ASSERT_VAL("detached buffer is empty", !sb.buf && !sb.len && !sb.alloc);
	free(s);
	s = strbuf_detach(&sb, &len);
	TEST_ASSERT_VAL("detach of an empty buffer gives \"\"", s && !*s && len == 0);
	free(s);
	strbuf_release(&sb);
	return TEST_OK;
}

static int test__strbuf_binary(void)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t v32;
	uint64_t v64;
	int ok = 1;

	strbuf_add_u8(&sb, 0);        /* embedded NULs are data */
	strbuf_add_u16(&sb, 0x1234);
	strbuf_align(&sb, 8);
	TEST_ASSERT_EQUAL("aligned to 8", sb.len, 8);
	strbuf_add_u32(&sb, 0);
	strbuf_add_u64(&sb, 0x1122334455667788ull);
	strbuf_addstr0(&sb, "ab");
	TEST_ASSERT_EQUAL("binary length", sb.len, 8 + 4 + 8 + 3);
	v32 = 0xdeadbeef;
	strbuf_set(&sb, 8, &v32, 4);
	memcpy(&v32, sb.buf + 8, 4);
	memcpy(&v64, sb.buf + 12, 8);
	TEST_ASSERT_VAL("set overwrites in place", v32 == 0xdeadbeef && v64 == 0x1122334455667788ull);
	TEST_ASSERT_VAL("string with its NUL", !memcmp(sb.buf + 20, "ab", 3));
	TEST_ASSERT_VAL("padding is zero", sb.buf[3] == 0 && sb.buf[7] == 0);

	/* 100,000 one-byte appends, then one large block: contents survive each growth */
	strbuf_reset(&sb);
	for (int i = 0; i < 100000; i++)
		strbuf_add_u8(&sb, (uint8_t)(i * 7));
	strbuf_addzeros(&sb, 1 << 20);
	TEST_ASSERT_EQUAL("grown length", sb.len, 100000 + (1 << 20));
	for (int i = 0; i < 100000; i++)
		ok &= (uint8_t)sb.buf[i] == (uint8_t)(i * 7);
	TEST_ASSERT_VAL("contents kept across growth", ok);
	TEST_ASSERT_VAL("zeros", sb.buf[100000] == 0 && sb.buf[sb.len - 1] == 0 && sb.buf[sb.len] == 0);
	strbuf_release(&sb);
	return TEST_OK;
}

static int test__strbuf_read_fd(void)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[1000];
	int fds[2];
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return TEST_FAIL;
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (pid == 0) {
		/* more than one read's worth, in pieces */
		close(fds[0]);
		memset(chunk, 'z', sizeof(chunk));
		for (int i = 0; i < 50; i++)
			if (write(fds[1], chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	strbuf_addstr(&sb, "head");
	n = strbuf_read_fd(&sb, fds[0]);
	close(fds[0]);
	while (wait(NULL) < 0 && errno == EINTR)
		;
	TEST_ASSERT_EQUAL("bytes read to EOF", n, 50000);
	TEST_ASSERT_EQUAL("appended after what was there", sb.len, 4 + 50000);
	TEST_ASSERT_VAL("contents", !memcmp(sb.buf, "headzzz", 7) && sb.buf[sb.len - 1] == 'z' && !sb.buf[sb.len]);
	TEST_ASSERT_VAL("a bad fd is an error", strbuf_read_fd(&sb, -1) == -1 && sb.len == 50004);
	strbuf_release(&sb);
	return TEST_OK;
}

struct pair { int a; long b; };

static int test__grow_array(void)
{
	struct pair *v = NULL;
	size_t nr = 0, alloc = 0, reallocs = 0, last_alloc = 0;
	int ok = 1;

	for (int i = 0; i < 10000; i++) {
		*ARRAY_PUSH(v, nr, alloc) = (struct pair){ i, -i };
		if (alloc != last_alloc) {
			reallocs++;
			last_alloc = alloc;
		}
		ok &= alloc >= nr;
	}
	TEST_ASSERT_EQUAL("elements pushed", nr, 10000);
	TEST_ASSERT_VAL("capacity always covers the count", ok);
	for (int i = 0; i < 10000; i++)
		ok &= v[i].a == i && v[i].b == -i;
	TEST_ASSERT_VAL("contents kept", ok);
	/* geometric growth: a one-element realloc per push would be 10,000 */
	TEST_ASSERT_VAL("few reallocations", reallocs < 30);
	GROW_ARRAY(v, 5, alloc);
	TEST_ASSERT_VAL("asking for less keeps the array", alloc >= 10000 && v[9999].a == 9999);
	free(v);
	return TEST_OK;
}

DEFINE_SUITE("strbuf: text, formatting, detach", test__strbuf_text);
DEFINE_SUITE("strbuf: binary appends, alignment, growth", test__strbuf_binary);
DEFINE_SUITE("strbuf: read a pipe to EOF", test__strbuf_read_fd);
DEFINE_SUITE("strbuf: grow-array helper", test__grow_array);
