// SPDX-License-Identifier: MIT
/*
 * libperf-jvmti.so: a JVMTI agent writing a jitdump of every method the JVM
 * compiles and every stub it generates, for perf inject --jit.
 *
 *   java -agentpath:/abs/libperf-jvmti.so[=dir=DIR,rawnames,noinline,verbose,stats] ...
 *   jcmd PID JVMTI.agent_load /abs/libperf-jvmti.so ['"OPTIONS"']   (jcmd eats bare key=value)
 *
 * Callbacks run on compiler threads and hold up compilation, so each one
 * assembles its records privately and only takes the file lock to write.
 * Nothing here may stop or crash the JVM: every failure is a warning.
 */
#include <dlfcn.h>
#include <jvmti.h>
#include <link.h>
#include <jvmticmlr.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "dump-file.h"
#include "method-cache.h"
#include "toggle-signal.h"
#include "util/jitdump.h"

struct agent_options {
	char *dir;
	bool raw_names;
	bool no_inline;
	bool verbose;
	bool stats;
	bool help;
	bool stop;
	bool record;
	bool ondemand;
	int signo;            /* signal=: toggles the agent; 0 = none */
};

/*
 * The agent's life: the first load (-agentpath, or an attach) gets a JVMTI
 * environment that stays until the JVM ends. Writing (events on, dump
 * open) is switched on and off inside it: at once unless ondemand, then by
 * later loads (perf record --jit), stop requests and the signal. Loads and
 * toggles are serialised by state_lock; the callbacks never take it.
 */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static JavaVM *agent_vm;
static jvmtiEnv *agent_env;       /* from the first load on */
static bool caps_added;           /* the compiled-method capabilities are ours */
static bool writing;              /* events enabled, dump open */
static bool writing_by_record;    /* switched on by perf record --jit: only then may it stop us */
static bool vm_dead;              /* after VMDeath nothing switches on again */
static bool have_lines;
static struct agent_options opts; /* of the first load */

/* with the stats option: what the callbacks cost, for the overhead benchmark */
static uint64_t stat_ns, stat_methods, stat_stubs;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (!opts.stats)
		return 0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void account(uint64_t start, uint64_t *counter)
{
	if (!opts.stats)
		return;
	__atomic_add_fetch(&stat_ns, thread_cpu_ns() - start, __ATOMIC_RELAXED);
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

static const char usage[] =
	"perf-jvmti: options (comma-separated): \n"
	"  dir=DIR    put java-jit-YYYYMMDD.XXXXXXXX/jit-PID.dump under DIR\n"
	"             (default: $JITDUMPDIR, else ~/.debug/jit)\n"
	"  rawnames   name methods in JVM form (Ljava/lang/String;hashCode()I)\n"
	"             instead of java.lang.String.hashCode()\n"
	"  noinline   do not write inline-stack records\n"
	"  verbose    print the dump path on stderr\n"
	"  stats      at exit, print on stderr how much CPU time the agent used\n"
	"  help       print this and do not record\n"
	"  ondemand   load idle (no events, no capabilities): a later load\n"
	"             (perf record --jit -p, jcmd JVMTI.agent_load) or the signal\n"
	"             switches it on and replays what is compiled\n"
	"  signal=SIG each SIG (USR1, RTMIN+2, a number) switches writing on or off\n"
	"  record     started by perf record --jit, which stops it at the end\n"
	"  stop       (a later load) stop writing and close the dump started\n"
	"             with record; a later load may start a new one\n";

static int parse_options(const char *s, struct agent_options *o)
{
	char *copy, *tok, *save = NULL;

	memset(o, 0, sizeof(*o));
	if (!s || !*s)
		return 0;
	copy = strdup(s);
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "dir=", 4)) {
			free(o->dir);
			o->dir = strdup(tok + 4);
		} else if (!strcmp(tok, "rawnames"))
			o->raw_names = true;
		else if (!strcmp(tok, "noinline"))
			o->no_inline = true;
		else if (!strcmp(tok, "verbose"))
			o->verbose = true;
		else if (!strcmp(tok, "stats"))
			o->stats = true;
		else if (!strcmp(tok, "help"))
			o->help = true;
		else if (!strcmp(tok, "stop"))
			o->stop = true;
		else if (!strcmp(tok, "record"))
			o->record = true;
		else if (!strcmp(tok, "ondemand"))
			o->ondemand = true;
		else if (!strncmp(tok, "signal=", 7)) {
			int signo = toggle_signal_parse(tok + 7);

			if (signo > 0)
				o->signo = signo;
		} else
			agent_warn("unknown option '%s' ignored (try help)", tok);
	}
	free(copy);
	return 0;
}

static uint32_t thread_id(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* LOAD: fixed part, name, code; its code_index is assigned when written */
static void put_load(struct rec_buf *b, const char *name, const void *addr, uint64_t size)
{
	struct jitdump_code_load load;
	size_t start = rec_buf_begin(b, JIT_CODE_LOAD);

	memset(&load, 0, sizeof(load));
	load.pid = getpid();
	load.tid = thread_id();
	load.vma = load.code_addr = (uint64_t)(uintptr_t)addr;
	load.code_size = size;
	rec_buf_put(b, (const char *)&load + sizeof(load.p), sizeof(load) - sizeof(load.p));
	if (!b->oom)
		b->code_index_at = start + offsetof(struct jitdump_code_load, code_index);
	rec_buf_put(b, name, strlen(name) + 1);
	rec_buf_put(b, addr, size);
	rec_buf_end(b, start);
}

struct pc_line {
	uint64_t addr;
	jint line;
	const char *file;
	unsigned seq;     /* keeps the VM's order among equal addresses */
};

static int cmp_pc_line(const void *a, const void *b)
{
	const struct pc_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void put_debug_info(struct rec_buf *b, uint64_t code_addr, struct pc_line *pl, size_t n)
{
	struct jitdump_debug_info di;
	size_t start, kept = 0;

	if (!n)
		return;
	/* perf's line program wants rising addresses */
	qsort(pl, n, sizeof(*pl), cmp_pc_line);
	/*
	 * A row that repeats the previous row's file and line adds nothing to
	 * the line table (an address belongs to the last row at or below it);
	 * dropping it keeps the dump smaller.
	 */
	for (size_t i = 0; i < n; i++) {
		if (kept && pl[i].line == pl[kept - 1].line && pl[i].file == pl[kept - 1].file)
			continue;
		pl[kept++] = pl[i];
	}
	start = rec_buf_begin(b, JIT_CODE_DEBUG_INFO);
	di.code_addr = code_addr;
	di.nr_entry = kept;
	rec_buf_put(b, (const char *)&di + sizeof(di.p), sizeof(di) - sizeof(di.p));
	for (size_t i = 0; i < kept; i++) {
		struct jitdump_debug_entry e = { pl[i].addr, pl[i].line, 0 };

		rec_buf_put(b, &e, sizeof(e));
		rec_buf_put(b, pl[i].file, strlen(pl[i].file) + 1);
	}
	rec_buf_end(b, start);
}

/*
 * String table of one INLINE_INFO record. Names and files come from the
 * method cache, where equal strings are one pointer, so a pointer-keyed hash
 * dedups them without comparing text.
 */
struct strtab {
	struct rec_buf data;
	const char **key;
	uint32_t *off;
	size_t n, slots;
};

static size_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (size_t)x;
}

static uint32_t strtab_add(struct strtab *t, const char *s)
{
	size_t i;
	uint32_t off;

	if ((t->n + 1) * 2 > t->slots) {
		size_t n = t->slots ? t->slots * 2 : 64;
		const char **k = calloc(n, sizeof(*k));
		uint32_t *o = calloc(n, sizeof(*o));

		if (!k || !o) {
			free(k);
			free(o);
			t->data.oom = true;
			return 0;
		}
		for (size_t j = 0; j < t->slots; j++) {
			if (!t->key[j])
				continue;
			for (i = hash_ptr(t->key[j]) & (n - 1); k[i]; i = (i + 1) & (n - 1))
				;
			k[i] = t->key[j];
			o[i] = t->off[j];
		}
		free(t->key);
		free(t->off);
		t->key = k;
		t->off = o;
		t->slots = n;
	}
	for (i = hash_ptr(s) & (t->slots - 1); t->key[i]; i = (i + 1) & (t->slots - 1))
		if (t->key[i] == s)
			return t->off[i];
	off = (uint32_t)t->data.len;
	rec_buf_put(&t->data, s, strlen(s) + 1);
	t->key[i] = s;
	t->off[i] = off;
	t->n++;
	return off;
}

/* consecutive pcs mostly share their methods: remember the last few lookups */
struct method_memo {
	jmethodID id[4];
	const struct method_info *mi[4];
	unsigned next;
};

static const struct method_info *memo_get(struct method_memo *m, jvmtiEnv *env, jmethodID id)
{
	for (int i = 0; i < 4; i++)
		if (m->mi[i] && m->id[i] == id)
			return m->mi[i];
	unsigned slot = m->next++ & 3;

	m->id[slot] = id;
	m->mi[slot] = method_cache_get(env, id);
	return m->mi[slot];
}

static void put_inline_info(struct rec_buf *b, jvmtiEnv *env, uint64_t code_addr,
			    uint64_t code_size, const jvmtiCompiledMethodLoadInlineRecord *const *recs,
			    size_t nr_recs)
{
	struct jitdump_inline_info ii;
	struct strtab st = { 0 };
	struct method_memo memo = { 0 };
	uint32_t nr_pc = 0;
	size_t start;

	start = rec_buf_begin(b, JIT_CODE_INLINE_INFO);
	memset(&ii, 0, sizeof(ii));
	rec_buf_put(b, (const char *)&ii + sizeof(ii.p), sizeof(ii) - sizeof(ii.p));
	for (size_t r = 0; r < nr_recs; r++) {
		for (jint i = 0; i < recs[r]->numpcs; i++) {
			const PCStackInfo *pc = &recs[r]->pcinfo[i];
			uint64_t a = (uint64_t)(uintptr_t)pc->pc;
			struct jitdump_inline_pc e = { a, 0, 0 };

			if (a < code_addr || a >= code_addr + code_size || pc->numstackframes <= 0)
				continue;
			e.nr_frame = pc->numstackframes;
			rec_buf_put(b, &e, sizeof(e));
			for (jint f = 0; f < pc->numstackframes; f++) {
				const struct method_info *mi = memo_get(&memo, env, pc->methods[f]);
				struct jitdump_inline_frame fr;

				fr.name = strtab_add(&st, mi->name);
				fr.file = strtab_add(&st, mi->file);
				fr.line = method_line(mi, pc->bcis[f]);
				fr.bci = pc->bcis[f];
				rec_buf_put(b, &fr, sizeof(fr));
			}
			nr_pc++;
		}
	}
	rec_buf_put(b, st.data.p, st.data.len);
	if (st.data.oom)
		b->oom = true;
	if (!b->oom) {
		struct jitdump_inline_info *hdr = (void *)(b->p + start);
		uint32_t tab = (uint32_t)st.data.len;

		memcpy(&hdr->code_addr, &code_addr, sizeof(code_addr));
		memcpy(&hdr->nr_pc, &nr_pc, sizeof(nr_pc));
		memcpy(&hdr->strtab_size, &tab, sizeof(tab));
	}
	rec_buf_end(b, start);
	rec_buf_free(&st.data);
	free(st.key);
	free(st.off);
}

static void JNICALL on_compiled_method_load(jvmtiEnv *env, jmethodID method, jint code_size,
					    const void *code_addr, jint map_length,
					    const jvmtiAddrLocationMap *map, const void *compile_info)
{
	const jvmtiCompiledMethodLoadInlineRecord *recs[8];
	const jvmtiCompiledMethodLoadRecordHeader *h;
	const uint64_t start = (uint64_t)(uintptr_t)code_addr, end = start + (uint64_t)code_size;
	const struct method_info *self;
	uint64_t t0 = thread_cpu_ns();
	struct pc_line *pl = NULL;
	size_t nr_recs = 0, npl = 0, cap = 0;
	struct method_memo memo = { 0 };
	bool inlined = false;
	struct rec_buf b;

	if (!dump_active() || code_size <= 0)
		return;
	self = method_cache_get(env, method);
	rec_buf_init(&b);

	for (h = compile_info; h && nr_recs < 8; h = h->next)
		if (h->kind == JVMTI_CMLR_INLINE_INFO)
			recs[nr_recs++] = (const jvmtiCompiledMethodLoadInlineRecord *)h;
	for (size_t r = 0; r < nr_recs && !inlined; r++)
		for (jint i = 0; i < recs[r]->numpcs && !inlined; i++)
			inlined = recs[r]->pcinfo[i].numstackframes > 1;

	if (have_lines) {
		for (size_t r = 0; r < nr_recs; r++)
			cap += recs[r]->numpcs > 0 ? recs[r]->numpcs : 0;
		if (!nr_recs && map && map_length > 0)
			cap = map_length;
		pl = cap ? malloc(cap * sizeof(*pl)) : NULL;
	}
	if (pl && nr_recs) {
		/* leaf frame of every pc: that is where the instruction's source line is */
		for (size_t r = 0; r < nr_recs; r++) {
			for (jint i = 0; i < recs[r]->numpcs; i++) {
				const PCStackInfo *pc = &recs[r]->pcinfo[i];
				uint64_t a = (uint64_t)(uintptr_t)pc->pc;
				const struct method_info *leaf;
				jint line;

				if (a < start || a >= end || pc->numstackframes <= 0)
					continue;
				leaf = memo_get(&memo, env, pc->methods[0]);
				line = method_line(leaf, pc->bcis[0]);
				if (line <= 0 || !*leaf->file)
					continue;
				pl[npl] = (struct pc_line){ a, line, leaf->file, (unsigned)npl };
				npl++;
			}
		}
	} else if (pl) {
		/* no inline info from this VM: the map gives bcis of the method itself */
		for (jint i = 0; i < map_length; i++) {
			uint64_t a = (uint64_t)(uintptr_t)map[i].start_address;
			jint line = method_line(self, (jint)map[i].location);

			if (a < start || a >= end || line <= 0 || !*self->file)
				continue;
			pl[npl] = (struct pc_line){ a, line, self->file, (unsigned)npl };
			npl++;
		}
	}
	put_debug_info(&b, start, pl, npl);
	free(pl);
	if (inlined && !opts.no_inline)
		put_inline_info(&b, env, start, code_size, recs, nr_recs);
	put_load(&b, self->name, code_addr, code_size);
	dump_write(&b);
	rec_buf_free(&b);
	account(t0, &stat_methods);
}

static void JNICALL on_dynamic_code_generated(jvmtiEnv *env, const char *name, const void *address,
					      jint length)
{
	uint64_t t0 = thread_cpu_ns();
	struct rec_buf b;

	if (!dump_active() || length <= 0)
		return;
	rec_buf_init(&b);
	put_load(&b, name && *name ? name : "[unnamed JVM stub]", address, length);
	dump_write(&b);
	rec_buf_free(&b);
	account(t0, &stat_stubs);
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
	pthread_mutex_lock(&state_lock);
	vm_dead = true;
	writing = false;
	pthread_mutex_unlock(&state_lock);
	dump_close();
	if (opts.stats)
		fprintf(stderr, "perf-jvmti: stats: %llu compiled methods, %llu stubs, %.3f s CPU in callbacks\n",
			(unsigned long long)stat_methods, (unsigned long long)stat_stubs, stat_ns / 1e9);
}

static const char *err_name(jvmtiEnv *env, jvmtiError err)
{
	static __thread char buf[64];
	char *name = NULL;

	if ((*env)->GetErrorName(env, err, &name) == JVMTI_ERROR_NONE && name) {
		snprintf(buf, sizeof(buf), "%s", name);
		(*env)->Deallocate(env, (unsigned char *)name);
	} else
		snprintf(buf, sizeof(buf), "JVMTI error %d", (int)err);
	return buf;
}

/* another writer (a first attach of a copy of us, or perf's agent) already maps a jit-PID.dump */
static bool other_dump_mapped(char *who, size_t len)
{
	char line[4200], suffix[32];
	FILE *f = fopen("/proc/self/maps", "re");
	bool found = false;

	if (!f)
		return false;
	snprintf(suffix, sizeof(suffix), "/jit-%d.dump", (int)getpid());
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');

		line[strcspn(line, "\n")] = 0;
		if (p && strlen(p) > strlen(suffix) && !strcmp(p + strlen(p) - strlen(suffix), suffix)) {
			snprintf(who, len, "%s", p);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* the compiled-method events with lines where the VM has them; HotSpot grants them live too */
static int add_capabilities(jvmtiEnv *env)
{
	jvmtiCapabilities caps;
	jvmtiJlocationFormat fmt;
	jvmtiError err;

	if (caps_added)
		return 0;
	memset(&caps, 0, sizeof(caps));
	caps.can_generate_compiled_method_load_events = 1;
	if ((*env)->GetJLocationFormat(env, &fmt) == JVMTI_ERROR_NONE && fmt == JVMTI_JLOCATION_JVMBCI) {
		caps.can_get_line_numbers = 1;
		caps.can_get_source_file_name = 1;
	}
	have_lines = caps.can_get_line_numbers;
	err = (*env)->AddCapabilities(env, &caps);
	if (err != JVMTI_ERROR_NONE && have_lines) {
		/* still worth naming the code without lines */
		caps.can_get_line_numbers = caps.can_get_source_file_name = 0;
		have_lines = false;
		err = (*env)->AddCapabilities(env, &caps);
	}
	if (err != JVMTI_ERROR_NONE) {
		agent_warn("cannot get compiled-method events (%s); not recording", err_name(env, err));
		return -1;
	}
	method_cache_init(opts.raw_names, have_lines);
	caps_added = true;
	return 0;
}

static jvmtiError set_code_events(jvmtiEnv *env, jvmtiEventMode mode)
{
	jvmtiError err = (*env)->SetEventNotificationMode(env, mode, JVMTI_EVENT_COMPILED_METHOD_LOAD, NULL);

	if (err == JVMTI_ERROR_NONE || mode == JVMTI_DISABLE) {
		jvmtiError e2 = (*env)->SetEventNotificationMode(env, mode, JVMTI_EVENT_DYNAMIC_CODE_GENERATED, NULL);

		if (err == JVMTI_ERROR_NONE)
			err = e2;
	}
	return err;
}

/*
 * Starts writing (state_lock held): capabilities, a new dump, the events,
 * then, in the live phase, a replay of the stubs and methods that exist
 * already (the callbacks run inside GenerateEvents). dir: this session's.
 */
static int switch_on(const char *dir, bool by_record, bool verbose, bool replay)
{
	jvmtiEnv *env = agent_env;
	char other[4096];
	jvmtiError err;

	if (other_dump_mapped(other, sizeof(other))) {
		agent_warn("another jitdump is being written for this process (%s); not starting", other);
		return -1;
	}
	if (add_capabilities(env) < 0 || dump_open(dir) < 0)
		return -1;
	err = set_code_events(env, JVMTI_ENABLE);
	if (err != JVMTI_ERROR_NONE) {
		agent_warn("cannot enable JVMTI events (%s); not recording", err_name(env, err));
		set_code_events(env, JVMTI_DISABLE);
		dump_close();
		return -1;
	}
	writing = true;
	writing_by_record = by_record;
	if (verbose)
		fprintf(stderr, "perf-jvmti: writing %s\n", dump_path());
	if (replay) {
		err = (*env)->GenerateEvents(env, JVMTI_EVENT_DYNAMIC_CODE_GENERATED);
		if (err != JVMTI_ERROR_NONE)
			agent_warn("cannot replay JVM stubs (%s)", err_name(env, err));
		err = (*env)->GenerateEvents(env, JVMTI_EVENT_COMPILED_METHOD_LOAD);
		if (err != JVMTI_ERROR_NONE)
			agent_warn("cannot replay compiled methods (%s)", err_name(env, err));
	}
	return 0;
}

/*
 * Stops writing (state_lock held) and closes the dump. The capabilities
 * stay: a callback still running may look up a method, and a method cached
 * without its lines would stay so for every later session.
 */
static void switch_off(void)
{
	set_code_events(agent_env, JVMTI_DISABLE);
	dump_close();
	writing = writing_by_record = false;
	if (opts.verbose)
		fprintf(stderr, "perf-jvmti: stopped writing; idle\n");
}

/* signal=: on when idle, off when writing (whoever switched it on) */
static void toggle(void)
{
	pthread_mutex_lock(&state_lock);
	if (vm_dead)
		;   /* a signal during shutdown: the dump is closed for good */
	else if (writing)
		switch_off();
	else
		switch_on(opts.dir, false, opts.verbose, true);
	pthread_mutex_unlock(&state_lock);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
	/* loaded at start: the signal thread needs a live VM to attach to */
	toggle_signal_start(agent_vm, toggle);
}

static int later_load(const char *options);

/*
 * The agent as a second file in the same JVM (perf record --jit gives a JVM
 * in a container its own copy): the copy that was loaded first, with its
 * environment, is the agent; later copies hand their loads to it.
 * 1: no such copy here (or it has no environment yet), 0 or -1: its answer.
 */
JNIEXPORT int perf_jvmti_forward(const char *options)
{
	int ret = 1;

	pthread_mutex_lock(&state_lock);
	if (agent_env)
		ret = later_load(options) < 0 ? -1 : 0;
	pthread_mutex_unlock(&state_lock);
	return ret;
}

struct forward_ctx {
	const char *options;
	const void *self;         /* our own load address, skipped */
	int ret;
};

static int forward_one(struct dl_phdr_info *info, size_t size, void *data)
{
	struct forward_ctx *c = data;
	int (*fwd)(const char *);
	void *h;

	if (!info->dlpi_name || !*info->dlpi_name || (const void *)info->dlpi_addr == c->self)
		return 0;
	h = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		return 0;
	fwd = (int (*)(const char *))dlsym(h, "perf_jvmti_forward");
	if (fwd && fwd != perf_jvmti_forward)
		c->ret = fwd(c->options);
	dlclose(h);
	return c->ret != 1;
}

static int forward_to_other_copy(const char *options)
{
	struct forward_ctx c = { options ? options : "", NULL, 1 };
	Dl_info self;

	if (!dladdr((void *)perf_jvmti_forward, &self))
		return 1;
	c.self = self.dli_fbase;
	dl_iterate_phdr(forward_one, &c);
	return c.ret;
}

/* the first load of this copy of the agent: its JVMTI environment, callbacks, signal */
static int first_load(JavaVM *vm, const char *options, bool live)
{
	jvmtiEventCallbacks cb;
	jvmtiEnv *env = NULL;

	free(opts.dir);
	parse_options(options, &opts);
	if (opts.help) {
		fputs(usage, stderr);
		return 1;
	}
	if (opts.stop) {
		agent_warn("not writing a dump; stop does nothing");
		return 1;
	}
	if ((*vm)->GetEnv(vm, (void **)&env, JVMTI_VERSION_1) != JNI_OK || !env) {
		agent_warn("no JVMTI environment; not recording");
		return -1;
	}
	memset(&cb, 0, sizeof(cb));
	cb.CompiledMethodLoad = on_compiled_method_load;
	cb.DynamicCodeGenerated = on_dynamic_code_generated;
	cb.VMDeath = on_vm_death;
	cb.VMInit = on_vm_init;
	if ((*env)->SetEventCallbacks(env, &cb, sizeof(cb)) != JVMTI_ERROR_NONE ||
	    (*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL) != JVMTI_ERROR_NONE) {
		agent_warn("cannot set JVMTI callbacks; not recording");
		(*env)->DisposeEnvironment(env);
		return -1;
	}
	agent_vm = vm;
	agent_env = env;
	if (opts.signo && toggle_signal_install(opts.signo) == 0) {
		if (live)
			toggle_signal_start(vm, toggle);
		else
			(*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
	}
	if (opts.ondemand) {
		if (opts.verbose)
			fprintf(stderr, "perf-jvmti: loaded idle (ondemand)\n");
		return 0;
	}
	if (switch_on(opts.dir, opts.record, opts.verbose, live) < 0) {
		if (!opts.signo) {
			/* nothing left that could switch us on: leave no environment behind */
			(*env)->DisposeEnvironment(env);
			agent_env = NULL;
		}
		return -1;
	}
	return 0;
}

/* a later load of the same library into the same JVM: a switch or a stop */
static int later_load(const char *options)
{
	struct agent_options o;
	int ret = 0;

	parse_options(options, &o);
	if (o.help) {
		fputs(usage, stderr);
	} else if (o.stop) {
		/* perf record --jit is done */
		if (!writing)
			agent_warn("not writing a dump; stop does nothing");
		else if (!writing_by_record)
			/* the user's own dump (-agentpath, jcmd, signal) */
			agent_warn("the dump was not started by perf record --jit; it goes on");
		else
			switch_off();
	} else if (writing) {
		agent_warn("already writing %s; this load does nothing", dump_path());
	} else if (o.ondemand || vm_dead) {
		agent_warn("already loaded, idle; this load does nothing");
	} else {
		if ((o.raw_names && !opts.raw_names) || (o.no_inline && !opts.no_inline) ||
		    (o.stats && !opts.stats) || (o.signo && o.signo != opts.signo))
			agent_warn("rawnames, noinline, stats and signal= are those of the first load; "
				   "ignored here");
		ret = switch_on(o.dir ? o.dir : opts.dir, o.record, o.verbose || opts.verbose, true);
	}
	free(o.dir);
	return ret;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	pthread_mutex_lock(&state_lock);
	if (agent_env)
		later_load(options);   /* -agentpath given twice */
	else
		first_load(vm, options, false);
	pthread_mutex_unlock(&state_lock);
	/* a failing agent must not stop the JVM from starting: always JNI_OK */
	return JNI_OK;
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
	int ret;

	/* HotSpot calls this again for every load of this library: that is how we are switched */
	pthread_mutex_lock(&state_lock);
	if (agent_env)
		ret = later_load(options);
	else if ((ret = forward_to_other_copy(options)) == 1)
		ret = first_load(vm, options, true);
	pthread_mutex_unlock(&state_lock);
	return ret < 0 ? JNI_ERR : JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
	dump_close();
}
