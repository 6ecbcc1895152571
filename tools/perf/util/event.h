/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_EVENT_H
#define PERF_UTIL_EVENT_H

/*
 * Records of the perf.data stream as they are laid out on disk
 * (Documentation/formats/perf-data.md). Kernel record types and perf_event_attr
 * come from the kernel's UAPI header; the types perf itself adds (>= 64)
 * are defined here.
 */
#include <stdint.h>
#include <linux/perf_event.h>

enum perf_user_record_type {
	PERF_RECORD_USER_TYPE_START     = 64,
	PERF_RECORD_HEADER_ATTR         = 64,
	PERF_RECORD_HEADER_EVENT_TYPE   = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID     = 67,
	PERF_RECORD_FINISHED_ROUND      = 68,
	PERF_RECORD_ID_INDEX            = 69,
	PERF_RECORD_AUXTRACE_INFO       = 70,
	PERF_RECORD_AUXTRACE            = 71,
	PERF_RECORD_AUXTRACE_ERROR      = 72,
	PERF_RECORD_THREAD_MAP          = 73,
	PERF_RECORD_CPU_MAP             = 74,
	PERF_RECORD_STAT_CONFIG         = 75,
	PERF_RECORD_STAT                = 76,
	PERF_RECORD_STAT_ROUND          = 77,
	PERF_RECORD_EVENT_UPDATE        = 78,
	PERF_RECORD_TIME_CONV           = 79,
	PERF_RECORD_HEADER_FEATURE      = 80,
	PERF_RECORD_COMPRESSED          = 81,
	PERF_RECORD_FINISHED_INIT       = 82,
	PERF_RECORD_HEADER_MAX          = 83,  /* perf 6.1 aborts at or above this */
};

/* feature bits of the file header / HEADER_FEATURE ids */
enum perf_header_feature {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,          /* 32: end marker in pipe mode */
	HEADER_FEAT_BITS = 256,
};

/* misc bits */
#define PERF_MISC_CPUMODE_MASK    7u
#define PERF_MISC_MMAP_BUILD_ID   (1u << 14)
#define PERF_MISC_BUILD_ID_SIZE   (1u << 15)   /* in HEADER_BUILD_ID records */

#define BUILD_ID_MAX 20

struct perf_record_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct perf_record_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {
			uint8_t build_id_size;
			uint8_t reserved1;
			uint16_t reserved2;
			uint8_t build_id[BUILD_ID_MAX];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

struct perf_record_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
};

/* FORK and EXIT share this layout */
struct perf_record_fork {
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct perf_record_lost {
	struct perf_event_header header;
	uint64_t id, lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
};

struct perf_record_throttle {
	struct perf_event_header header;
	uint64_t time, id, stream_id;
};

/* pipe mode: attr (attr.size bytes) then ids to the end of the record */
struct perf_record_header_attr {
	struct perf_event_header header;
	unsigned char attr[];
};

/* followed, outside the record, by `size` bytes of tracing data */
struct perf_record_header_tracing_data {
	struct perf_event_header header;
	uint32_t size;
	uint32_t pad;
};

struct perf_record_header_build_id {
	struct perf_event_header header;
	int32_t pid;
	uint8_t build_id[BUILD_ID_MAX];
	uint8_t size;
	uint8_t reserved[3];
	char filename[];
};

struct perf_record_header_feature {
	struct perf_event_header header;
	uint64_t feat_id;
	unsigned char data[];
};

struct perf_record_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_id_index_entry entries[];
};

struct perf_record_time_conv {
	struct perf_event_header header;
	uint64_t time_shift, time_mult, time_zero;
	/* long form only (header.size >= 56) */
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short, reserved[6];
};

/* kernel code with a name: BPF programs, trampolines (perf-data-records-2.md) */
struct perf_record_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;            /* PERF_RECORD_KSYMBOL_TYPE_* */
	uint16_t flags;                /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
	char name[];                   /* NUL-terminated, padded to 8 */
};

struct perf_record_bpf_event {
	struct perf_event_header header;
	uint16_t type;                 /* PERF_BPF_EVENT_PROG_LOAD / _UNLOAD */
	uint16_t flags;
	uint32_t id;
	uint8_t tag[8];
};

union perf_event {
	struct perf_event_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_throttle throttle;
	struct perf_record_header_attr attr;
	struct perf_record_header_tracing_data tracing_data;
	struct perf_record_header_build_id build_id;
	struct perf_record_header_feature feat;
	struct perf_record_id_index id_index;
	struct perf_record_time_conv time_conv;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_bpf_event bpf;
};

const char *perf_record_type__name(uint32_t type);
/* "BUILD_ID", "HOSTNAME", ... as perf names them; "UNKNOWN" otherwise */
const char *perf_feature__name(int feat);

#endif
