// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "script-output.h"
#include "script-trace.h"
#include "symbol.h"
#include "util.h"

/* perf 6.1's -F names, in its order (the usage line lists them so) */
static const char *const field_names[SF_NR] = {
	"comm", "tid", "pid", "time", "cpu", "event", "trace", "ip", "sym", "dso",
	"addr", "symoff", "srcline", "period", "iregs", "uregs", "brstack", "brstacksym",
	"flags", "data_src", "weight", "bpf-output", "brstackinsn", "brstackinsnlen",
	"brstackoff", "callindent", "insn", "insnlen", "synth", "phys_addr", "metric",
	"misc", "srccode", "ipc", "tod", "data_page_size", "code_page_size", "ins_lat",
};

/* the words of its messages for each kind ("not valid for software events") */
static const char *const type_words[ST_NR] = {
	"hardware", "software", "tracepoint", "hardware-cache", "raw", "breakpoint",
	"unknown", "unknown",
};

#define SAMPLE_FIELDS (SF(COMM) | SF(TID) | SF(TIME) | SF(EVNAME) | SF(IP) | SF(SYM) | \
		       SF(SYMOFF) | SF(DSO) | SF(PERIOD) | SF(CPU))

static const uint64_t default_fields[ST_NR] = {
	[ST_HW] = SAMPLE_FIELDS,
	[ST_SW] = SAMPLE_FIELDS,
	[ST_TRACE] = SF(COMM) | SF(TID) | SF(CPU) | SF(TIME) | SF(EVNAME) | SF(TRACE),
	[ST_HW_CACHE] = SAMPLE_FIELDS,
	[ST_RAW] = SAMPLE_FIELDS | SF(ADDR),
	[ST_BREAKPOINT] = SAMPLE_FIELDS,
	[ST_SYNTH] = SF(COMM) | SF(TID) | SF(TIME) | SF(EVNAME) | SF(SYNTH),
	[ST_OTHER] = SAMPLE_FIELDS,
};

/* fields a kind of event can never have: asked for all kinds, they are dropped there */
static const uint64_t invalid_fields[ST_NR] = {
	[ST_HW] = SF(TRACE) | SF(BPF_OUTPUT),
	[ST_SW] = SF(TRACE),
	[ST_HW_CACHE] = SF(TRACE) | SF(BPF_OUTPUT),
	[ST_SYNTH] = SF(TRACE) | SF(BPF_OUTPUT),
	[ST_OTHER] = SF(TRACE) | SF(BPF_OUTPUT),
};

void script_output__init(struct script_output *o)
{
	memset(o, 0, sizeof(*o));
	for (int t = 0; t < ST_NR; t++)
		o->fields[t] = default_fields[t];
	o->max_stack = SCRIPT_MAX_FRAMES;
	o->tp = script_trace__new();
}

void script_output__exit(struct script_output *o)
{
	script_trace__delete(o->tp);
	o->tp = NULL;
	for (size_t i = 0; i < o->stop_bt.nr; i++)
		free(o->stop_bt.names[i]);
	free(o->stop_bt.names);
	o->stop_bt.names = NULL;
	o->stop_bt.nr = 0;
}

enum script_type evsel__script_type(const struct evsel *evsel)
{
	switch (evsel->attr.type) {
	case PERF_TYPE_HARDWARE: return ST_HW;
	case PERF_TYPE_SOFTWARE: return ST_SW;
	case PERF_TYPE_TRACEPOINT: return ST_TRACE;
	case PERF_TYPE_HW_CACHE: return ST_HW_CACHE;
	case PERF_TYPE_RAW: return ST_RAW;
	case PERF_TYPE_BREAKPOINT: return ST_BREAKPOINT;
	default: return ST_OTHER;
	}
}

static int parse_type(const char *s, size_t len)
{
	static const struct { const char *name; int type; } types[] = {
		{ "hw", ST_HW }, { "sw", ST_SW }, { "trace", ST_TRACE }, { "raw", ST_RAW },
		{ "synth", ST_SYNTH }, { "break", ST_BREAKPOINT },
	};

	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (strlen(types[i].name) == len && !strncmp(s, types[i].name, len))
			return types[i].type;
	return -1;
}

static int field_of(const char *name)
{
	for (int i = 0; i < SF_NR; i++)
		if (!strcmp(name, field_names[i]))
			return i;
	return -1;
}

int script_output__parse_fields(struct script_output *o, const char *arg)
{
	const char *colon = strchr(arg, ':');
	int type = -1;
	char *copy, *tok, *save = NULL;
	uint64_t set = 0, add = 0, del = 0;
	bool edit = false;

	if (colon) {
		type = parse_type(arg, colon - arg);
		if (type < 0) {
			pr_err("Invalid event type in field string.\n");
			return -1;
		}
		arg = colon + 1;
	}
	copy = xstrdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char sign = 0;
		int f;

		if (*tok == '+' || *tok == '-')
			sign = *tok++;
		f = field_of(tok);
		if (f < 0) {
			pr_err("Invalid field requested.\n");
			free(copy);
			return -1;
		}
		if (sign == '+')
			add |= 1ull << f;
		else if (sign == '-')
			del |= 1ull << f;
		else
			set |= 1ull << f;
		edit |= sign != 0;
	}
	free(copy);
	for (int t = 0; t < ST_NR; t++) {
		uint64_t f;

		if (type >= 0 && t != type)
			continue;
		/* +field/-field edit what the kind prints now; a plain list replaces it */
		f = edit && !set ? o->fields[t] : set;
		f = (f | add) & ~del;
		if (type < 0 && (f & invalid_fields[t])) {
			for (int i = 0; i < SF_NR; i++)
				if (f & invalid_fields[t] & (1ull << i))
					pr_warning("'%s' not valid for %s events. Ignoring.\n", field_names[i],
						   type_words[t]);
			f &= ~invalid_fields[t];
			/* a kind left with nothing to print is not printed at all */
			if (!(f & ~(add | del)) && !edit)
				f = 0;
		}
		o->fields[t] = f;
		o->named[t] |= set | add;
		o->touched[t] = true;
		/* only a list of its own makes the kind "user set" (+/- edit the defaults) */
		if (set)
			o->user_set[t] = true;
	}
	return 0;
}

/* what each field needs in sample_type for perf 6.1 to print it */
static const struct { int field; uint64_t bit; const char *name; } needs[] = {
	{ SF_TID, PERF_SAMPLE_TID, "TID" }, { SF_PID, PERF_SAMPLE_TID, "TID" },
	{ SF_TIME, PERF_SAMPLE_TIME, "TIME" }, { SF_CPU, PERF_SAMPLE_CPU, "CPU" },
	{ SF_IP, PERF_SAMPLE_IP, "IP" }, { SF_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
{ SF_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS" },
	{ SF_UREGS, PERF_SAMPLE_REGS_USER, "UREGS" }, { SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ SF_WEIGHT, PERF_SAMPLE_WEIGHT, "WEIGHT" }, { SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ SF_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ SF_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ SF_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ SF_TRACE, PERF_SAMPLE_RAW, "RAW" },
};

/* fields printed without a sample_type bit behind them, or not at all here */
static const uint64_t unsupported = SF(IREGS) | SF(UREGS) | SF(DATA_SRC) | SF(WEIGHT) |
	SF(PHYS_ADDR) | SF(DATA_PAGE_SIZE) | SF(CODE_PAGE_SIZE) | SF(INS_LAT) | SF(INSN) |
	SF(INSNLEN) | SF(SRCCODE) | SF(TOD) | SF(BRSTACKINSN) | SF(BRSTACKINSNLEN);

static int check_evsel(struct script_output *o, const struct evsel *evsel)
{
	enum script_type t = evsel__script_type(evsel);
	uint64_t *f = &o->fields[t], st = evsel->attr.sample_type;

	for (size_t i = 0; i < ARRAY_SIZE(needs); i++) {
		if (!(*f & (1ull << needs[i].field)) || (st & needs[i].bit))
			continue;
		if (!(o->named[t] & (1ull << needs[i].field))) {
			*f &= ~(1ull << needs[i].field);
			continue;
		}
		pr_err("Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.\n",
		       evsel->name, needs[i].name, field_names[needs[i].field]);
		return -1;
	}
	if (!o->touched[t])
		return 0;
	if ((*f & SF(SYMOFF)) && !(*f & SF(SYM))) {
		pr_err("Display of offsets requested but symbol is not" "selected.\n");
		return -1;
	}
	if ((*f & SF(SRCLINE)) && !(*f & SF(IP))) {
		pr_err("Display of source line number requested but sample IP is not\n"
		       "selected. Hence, no address to lookup the source line number.\n");
		return -1;
	}
	if (*f & SF(TOD)) {
		pr_err("Can't provide 'tod' time, missing clock data. Please record with -k/--clockid option.\n");
		return -1;
	}
	if (*f & SF(BRSTACKINSN) && !(st & PERF_SAMPLE_BRANCH_STACK)) {
		pr_err("Display of branch stack assembler requested, but non all-branch filter set\n"
		       "Hint: run 'perf record -b ...'\n");
		return -1;
	}
	if (*f & unsupported) {
		for (int i = 0; i < SF_NR; i++)
			if (*f & unsupported & (1ull << i)) {
				pr_err("Printing '%s' is not supported by this perf script.\n", field_names[i]);
				return -1;
			}
	}
	return 0;
}

int script_output__setup(struct script_output *o, struct perf_session *s)
{
	bool checked[ST_NR] = { false };

	for (size_t i = 0; i < s->nr_evsels; i++) {
		int len = (int)strlen(s->evsels[i].name);
		enum script_type t = evsel__script_type(&s->evsels[i]);

		if (len > o->name_width)
			o->name_width = len;
		/* perf 6.1 checks the first event of each kind only (a dummy
		 * event after cpu-clock does not take its period away) */
		if (checked[t])
			continue;
		checked[t] = true;
		if (check_evsel(o, &s->evsels[i]) < 0)
			return -1;
	}
	return 0;
}

static uint64_t fields_of(const struct script_output *o, const struct evsel *evsel)
{
	return o->fields[evsel__script_type(evsel)];
}

/* perf's one-letter marks of header.misc (the misc field) */
static void print_misc(FILE *f, uint32_t type, uint16_t misc)
{
	char buf[8];
	int n = 0;

	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL: buf[n++] = 'K'; break;
	case PERF_RECORD_MISC_USER: buf[n++] = 'U'; break;
	case PERF_RECORD_MISC_HYPERVISOR: buf[n++] = 'H'; break;
	case PERF_RECORD_MISC_GUEST_KERNEL: buf[n++] = 'G'; break;
	case PERF_RECORD_MISC_GUEST_USER: buf[n++] = 'g'; break;
	default: break;
	}
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (misc & PERF_RECORD_MISC_MMAP_DATA)
			buf[n++] = 'M';
		break;
	case PERF_RECORD_COMM:
		if (misc & PERF_RECORD_MISC_COMM_EXEC)
			buf[n++] = 'E';
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (misc & PERF_RECORD_MISC_SWITCH_OUT) {
			buf[n++] = 'S';
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				buf[n++] = 'p';
		}
		break;
	case PERF_RECORD_SAMPLE:
		if (misc & PERF_RECORD_MISC_EXACT_IP)
			buf[n++] = 'x';
		break;
	default:
		break;
	}
	buf[n] = 0;
	fprintf(f, "%-5s ", buf);
}

/* comm, pid/tid, cpu, misc and time: what samples and side-band records share */
static void print_start(struct script_output *o, FILE *f, uint64_t fields, bool chain,
			const struct thread *thread, const struct perf_sample *sample, uint32_t type,
			uint16_t misc)
{
	if (fields & SF(COMM)) {
		const char *comm = thread ? thread->comm : ":-1";

		/* perf pads the command only when no call chain follows */
		if (chain)
			fprintf(f, "%s ", comm);
		else
			fprintf(f, "%16s ", comm);
	}
	if ((fields & SF(PID)) && (fields & SF(TID)))
		fprintf(f, "%5d/%-5d ", (int)sample->pid, (int)sample->tid);
	else if (fields & SF(PID))
		fprintf(f, "%5d ", (int)sample->pid);
	else if (fields & SF(TID))
		fprintf(f, "%5d ", (int)sample->tid);
	if (fields & SF(CPU))
		fprintf(f, "[%03d] ", (int)sample->cpu);
	if (fields & SF(MISC))
		print_misc(f, type, misc);
	if (fields & SF(TIME)) {
		uint64_t t = sample->time;

		/* like perf, a record at time 0 does not start the clock */
		if (o->reltime) {
			if (!o->initial_time)
				o->initial_time = t;
			t -= o->initial_time;
		} else if (o->deltatime) {
			t = o->previous_time ? t - o->previous_time : 0;
			o->previous_time = sample->time;
		}
		if (o->ns)
			fprintf(f, "%5" PRIu64 ".%09" PRIu64 ": ", t / 1000000000u, t % 1000000000u);
		else
			fprintf(f, "%5" PRIu64 ".%06" PRIu64 ": ", t / 1000000000u,
				t % 1000000000u / 1000);
	}
}

static const char *dso_name(const struct dso *dso)
{
	return dso ? dso->long_name : "[unknown]";
}

static void print_srcline(FILE *f, struct perf_session *s, const struct hist_frame *fr)
{
	const char *sl = fr->dso && fr->sym ? dso__srcline(&s->machine.dsos, fr->dso, fr->addr) : NULL;

	/* no line: perf names the place "dso[address]"; nothing without a map */
	if (sl)
		fprintf(f, "\n  %s", sl);
	else if (fr->dso)
		fprintf(f, "\n  %s[%" PRIx64 "]", fr->dso->short_name, fr->addr);
}

/* " sym+off (dso)" of one frame, as far as the fields ask */
static void print_sym(const struct script_output *o, FILE *f, const struct hist_frame *fr,
		      uint64_t fields)
{
	if (fields & SF(SYM)) {
		if (fr->sym) {
			fprintf(f, " %s", fr->sym->name);
			if (fields & SF(SYMOFF))
				fprintf(f, "+0x%" PRIx64, fr->addr - fr->sym->start);
		} else
			fprintf(f, " [unknown]");
	}
	if (fields & SF(DSO)) {
		if (fr->inlined)
			fprintf(f, " (inlined)");
		else
			fprintf(f, " (%s)", dso_name(fr->dso));
	}
}

static bool is_fault_event(const struct evsel *evsel)
{
	uint64_t c = evsel->attr.config;

	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (c == PERF_COUNT_SW_PAGE_FAULTS || c == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		c == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

static void print_addr(struct script_output *o, FILE *f, struct perf_session *s,
		       const struct perf_sample *sample, const struct evsel *evsel, uint64_t fields)
{
	struct addr_location al;
	struct hist_frame fr = { 0 };
	uint8_t mode;

	fprintf(f, "%16" PRIx64, sample->addr);
	/* only a fault's address is an address of the process to name */
	if (!is_fault_event(evsel) || !(fields & (SF(SYM) | SF(DSO))))
		return;
	mode = sample->addr >= 0xffff800000000000ull ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	if (machine__resolve(&s->machine, sample->pid, sample->tid, mode, sample->addr, &al, false) < 0)
		return;
	fr.dso = al.dso;
	fr.sym = al.sym;
	fr.addr = al.dso ? al.addr : sample->addr;
	print_sym(o, f, &fr, fields);
}

static bool prints_chain(const struct script_output *o, const struct perf_sample *sample,
			 uint64_t fields)
{
	return !o->hide_callchain && sample->callchain && (fields & SF(IP));
}

size_t script_output__resolve(struct script_output *o, struct perf_session *s,
			      const struct perf_sample *sample, const struct evsel *evsel,
			      struct thread **thread)
{
	bool chain = prints_chain(o, sample, fields_of(o, evsel));
	size_t max = chain ? o->max_stack : 1;
	size_t n;

	*thread = NULL;
	n = callchain_resolver__frames(&o->resolver, sample, o->frames, max ? max : 1, thread);
	/* addresses of a sample without a thread (tid -1) resolve in its
	 * process, but perf 6.1 names the thread ":-1" */
	if ((int32_t)sample->tid == -1 && (int32_t)sample->pid != -1)
		*thread = machine__findnew_thread(&s->machine, (int32_t)sample->pid, -1);
	/* --max-stack 0 prints the sample without any frame */
	return chain && !o->max_stack ? 0 : n;
}

static bool stops_chain(const struct script_output *o, const char *name)
{
	for (size_t i = 0; i < o->stop_bt.nr; i++)
		if (!strcmp(o->stop_bt.names[i], name))
			return true;
	return false;
}

void script_output__sample(struct script_output *o, FILE *f, struct perf_session *s,
			   const struct perf_sample *sample, const struct evsel *evsel,
			   const struct thread *thread, size_t n)
{
	uint64_t fields = fields_of(o, evsel);
	bool chain = prints_chain(o, sample, fields);

	if (!fields)
		return;
	print_start(o, f, fields, chain, thread, sample, PERF_RECORD_SAMPLE, sample->misc);
	if (fields & SF(PERIOD))
		fprintf(f, "%10" PRIu64 " ", (uint64_t)((evsel->attr.sample_type & PERF_SAMPLE_PERIOD) ||
						evsel->attr.freq ? sample->period : evsel->attr.sample_period));
	if (fields & SF(EVNAME))
		fprintf(f, "%*s: ", o->name_width, evsel->name);
	if ((fields & SF(TRACE)) && sample->raw_data) {
		char buf[4096];

		if (script_trace__format(o->tp, s, evsel, n ? &o->frames[0] : NULL, sample->raw_data,
					 sample->raw_size, buf, sizeof(buf)) >= 0)
			fprintf(f, "%s", buf);
	}
	if (fields & SF(ADDR))
		print_addr(o, f, s, sample, evsel, fields);
	if (fields & SF(IP)) {
		if (chain) {
			fputc('\n', f);
			for (size_t i = 0; i < n; i++) {
				const struct hist_frame *fr = &o->frames[i];

				fprintf(f, "\t%16" PRIx64, fr->addr);
				print_sym(o, f, fr, fields);
				if (fields & SF(SRCLINE))
					print_srcline(f, s, fr);
				fputc('\n', f);
				if (fr->sym && stops_chain(o, fr->sym->name))
					break;
			}
		} else {
			fprintf(f, " %16" PRIx64, sample->ip);
			print_sym(o, f, &o->frames[0], fields);
			if (fields & SF(SRCLINE))
				print_srcline(f, s, &o->frames[0]);
		}
	}
	fputc('\n', f);
}

static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

static void print_namespaces(FILE *f, const union perf_event *ev)
{
	const uint32_t *w = (const uint32_t *)(ev + 0) + 2;
	size_t size = ev->header.size;
	uint64_t nr;
	const uint64_t *link;

	if (size < 24)
		return (void)fputc('\n', f);
	nr = *(const uint64_t *)(w + 2);
	link = (const uint64_t *)(w + 4);
	if (nr > (size - 24) / 16)
		nr = (size - 24) / 16;
	fprintf(f, " %u/%u - nr_namespaces: %" PRIu64 "\n\t\t[", w[0], w[1], nr);
	for (uint64_t i = 0; i < nr; i++) {
		fprintf(f, "%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "%s", i,
			i < ARRAY_SIZE(ns_names) ? ns_names[i] : "unknown", link[2 * i], link[2 * i + 1],
			i + 1 < nr ? ", " : "]\n");
		if (i + 1 < nr && (i + 1) % 4 == 0)
			fprintf(f, "\n\t\t ");
	}
	if (!nr)
		fprintf(f, "]\n");
}

static void print_switch(FILE *f, const union perf_event *ev)
{
	bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *dir = !out ? "IN         " :
			  (ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" :
										   "OUT        ";
	const uint32_t *w = (const uint32_t *)ev + 2;

	if (ev->header.type == PERF_RECORD_SWITCH || ev->header.size < 16)
		fprintf(f, " %s\n", dir);
	else
		fprintf(f, " %s  %s pid/tid: %5d/%-5d\n", dir, out ? "next" : "prev", (int)w[0], (int)w[1]);
}

/* the record's text after "PERF_RECORD_<TYPE>" */
static void print_record(FILE *f, const union perf_event *ev)
{
	char c[4];
	size_t size = ev->header.size;
	static const struct { uint32_t type; size_t min; } mins[] = {
		{ PERF_RECORD_MMAP, sizeof(struct perf_record_mmap) },
		{ PERF_RECORD_MMAP2, sizeof(struct perf_record_mmap2) },
		{ PERF_RECORD_COMM, sizeof(struct perf_record_comm) },
		{ PERF_RECORD_FORK, sizeof(struct perf_record_fork) },
		{ PERF_RECORD_EXIT, sizeof(struct perf_record_fork) },
		{ PERF_RECORD_LOST, sizeof(struct perf_record_lost) },
	};

	/* a record too short for its type shows its name only */
	for (size_t i = 0; i < ARRAY_SIZE(mins); i++)
		if (ev->header.type == mins[i].type && size < mins[i].min) {
			fputc('\n', f);
			return;
		}
	switch (ev->header.type) {
	case PERF_RECORD_MMAP:
		fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
			(int)ev->mmap.pid, (int)ev->mmap.tid, ev->mmap.start, ev->mmap.len, ev->mmap.pgoff,
			(ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			(int)strnlen(ev->mmap.filename, size - sizeof(ev->mmap)), ev->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)ev->mmap2.pid,
			(int)ev->mmap2.tid, ev->mmap2.start, ev->mmap2.len, ev->mmap2.pgoff);
		if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			char bid[2 * BUILD_ID_MAX + 1];
			size_t n = ev->mmap2.build_id_size;

			build_id__sprintf(ev->mmap2.build_id, n > BUILD_ID_MAX ? BUILD_ID_MAX : n, bid);
			fprintf(f, " <%s>", bid);
		} else
			fprintf(f, " %02x:%02x %" PRIu64 " %" PRIu64, ev->mmap2.maj, ev->mmap2.min,
				ev->mmap2.ino, ev->mmap2.ino_generation);
		c[0] = ev->mmap2.prot & PROT_READ ? 'r' : '-';
		c[1] = ev->mmap2.prot & PROT_WRITE ? 'w' : '-';
		c[2] = ev->mmap2.prot & PROT_EXEC ? 'x' : '-';
		c[3] = ev->mmap2.flags & MAP_SHARED ? 's' : 'p';
		fprintf(f, "]: %.4s %.*s\n", c, (int)strnlen(ev->mmap2.filename, size - sizeof(ev->mmap2)),
			ev->mmap2.filename);
		break;
	case PERF_RECORD_COMM:
		fprintf(f, "%s: %.*s:%d/%d\n", (ev->header.misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			(int)strnlen(ev->comm.comm, size - sizeof(ev->comm)), ev->comm.comm,
			(int)ev->comm.pid, (int)ev->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(f, "(%d:%d):(%d:%d)\n", (int)ev->fork.pid, (int)ev->fork.tid, (int)ev->fork.ppid,
			(int)ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
		fprintf(f, " lost %" PRIu64 "\n", ev->lost.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		print_switch(f, ev);
		break;
	case PERF_RECORD_NAMESPACES:
		print_namespaces(f, ev);
		break;
	case PERF_RECORD_CGROUP:
		if (size < 16)
			fputc('\n', f);
		else
			fprintf(f, " cgroup: %" PRIu64 " %.*s\n", *(const uint64_t *)((const char *)ev + 8),
				(int)strnlen((const char *)ev + 16, size - 16), (const char *)ev + 16);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(f, " addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n", ev->ksymbol.addr,
			ev->ksymbol.len, ev->ksymbol.ksym_type, ev->ksymbol.flags,
			(int)strnlen(ev->ksymbol.name, size > sizeof(ev->ksymbol) ? size - sizeof(ev->ksymbol) : 0),
			ev->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf(f, " type %u, flags %u, id %u\n", ev->bpf.type, ev->bpf.flags, ev->bpf.id);
		break;
	default:
		fputc('\n', f);
		break;
	}
}

static unsigned show_flag(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return SHOW_MMAP;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return SHOW_TASK;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return SHOW_SWITCH;
	case PERF_RECORD_LOST:
		return SHOW_LOST;
	case PERF_RECORD_FINISHED_ROUND:
		return SHOW_ROUND;
	case PERF_RECORD_NAMESPACES:
		return SHOW_NAMESPACE | SHOW_TASK;
	case PERF_RECORD_CGROUP:
		return SHOW_CGROUP;
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
		return SHOW_BPF;
	default:
		return 0;
	}
}

void script_output__event(struct script_output *o, FILE *f, struct perf_session *s,
			  const union perf_event *ev, const struct perf_sample *sample)
{
	uint32_t type = ev->header.type;
	unsigned flag = show_flag(type);
	struct evsel *evsel;
	struct thread *thread;
	const uint32_t *w;
	int32_t pid, tid;
	uint64_t fields;
	bool chain;

	if (!(o->show & flag))
		return;
	/* NAMESPACES belong to --show-namespace-events only */
	if (type == PERF_RECORD_NAMESPACES && !(o->show & SHOW_NAMESPACE))
		return;
	if (type == PERF_RECORD_FINISHED_ROUND || !sample) {
		fprintf(f, "PERF_RECORD_%s", perf_record_type__name(type));
		print_record(f, ev);
		return;
	}
	evsel = perf_session__evsel_of(s, ev);
	if (!evsel)
		return;
	fields = fields_of(o, evsel);
	chain = !o->hide_callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
		(fields & SF(IP));
	/* the thread the record is about, not the one it was written for */
	w = (const uint32_t *)ev + 2;
	pid = (int32_t)sample->pid;
	tid = (int32_t)sample->tid;
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_NAMESPACES:
		if (ev->header.size >= 16) {
			pid = (int32_t)w[0];
			tid = (int32_t)w[1];
		}
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (ev->header.size >= 24) {
			pid = (int32_t)ev->fork.pid;
			tid = (int32_t)ev->fork.tid;
		}
		break;
	default:
		break;
	}
	thread = machine__findnew_thread(&s->machine, pid, tid);
	print_start(o, f, fields, chain, thread, sample, type, ev->header.misc);
	fprintf(f, "PERF_RECORD_%s", perf_record_type__name(type));
	print_record(f, ev);
}
