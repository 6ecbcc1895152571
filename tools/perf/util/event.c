// SPDX-License-Identifier: MIT
/* Names of perf.data record types, as perf prints them in -D dumps. */
#include <stddef.h>
#include "event.h"

static const char *const record_names[PERF_RECORD_HEADER_MAX] = {
	[PERF_RECORD_MMAP]                 = "MMAP",
	[PERF_RECORD_LOST]                 = "LOST",
	[PERF_RECORD_COMM]                 = "COMM",
	[PERF_RECORD_EXIT]                 = "EXIT",
	[PERF_RECORD_THROTTLE]             = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE]           = "UNTHROTTLE",
	[PERF_RECORD_FORK]                 = "FORK",
	[PERF_RECORD_READ]                 = "READ",
	[PERF_RECORD_SAMPLE]               = "SAMPLE",
	[PERF_RECORD_MMAP2]                = "MMAP2",
	[PERF_RECORD_AUX]                  = "AUX",
	[PERF_RECORD_ITRACE_START]         = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES]         = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH]               = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE]      = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES]           = "NAMESPACES",
	[PERF_RECORD_KSYMBOL]              = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT]            = "BPF_EVENT",
	[PERF_RECORD_CGROUP]               = "CGROUP",
	[PERF_RECORD_TEXT_POKE]            = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID]     = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR]          = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE]    = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA]  = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID]      = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND]       = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX]             = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO]        = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE]             = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR]       = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP]           = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP]              = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG]          = "STAT_CONFIG",
	[PERF_RECORD_STAT]                 = "STAT",
	[PERF_RECORD_STAT_ROUND]           = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE]         = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV]            = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE]       = "FEATURE",
	[PERF_RECORD_COMPRESSED]           = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT]        = "FINISHED_INIT",
};

const char *perf_record_type__name(uint32_t type)
{
	if (type < PERF_RECORD_HEADER_MAX && record_names[type])
		return record_names[type];
	return "UNKNOWN";
}

static const char *const feature_names[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA]    = "TRACING_DATA",
	[HEADER_BUILD_ID]        = "BUILD_ID",
	[HEADER_HOSTNAME]        = "HOSTNAME",
	[HEADER_OSRELEASE]       = "OSRELEASE",
	[HEADER_VERSION]         = "VERSION",
	[HEADER_ARCH]            = "ARCH",
	[HEADER_NRCPUS]          = "NRCPUS",
	[HEADER_CPUDESC]         = "CPUDESC",
	[HEADER_CPUID]           = "CPUID",
	[HEADER_TOTAL_MEM]       = "TOTAL_MEM",
	[HEADER_CMDLINE]         = "CMDLINE",
	[HEADER_EVENT_DESC]      = "EVENT_DESC",
	[HEADER_CPU_TOPOLOGY]    = "CPU_TOPOLOGY",
	[HEADER_NUMA_TOPOLOGY]   = "NUMA_TOPOLOGY",
	[HEADER_BRANCH_STACK]    = "BRANCH_STACK",
	[HEADER_PMU_MAPPINGS]    = "PMU_MAPPINGS",
	[HEADER_GROUP_DESC]      = "GROUP_DESC",
	[HEADER_AUXTRACE]        = "AUXTRACE",
	[HEADER_STAT]            = "STAT",
	[HEADER_CACHE]           = "CACHE",
	[HEADER_SAMPLE_TIME]     = "SAMPLE_TIME",
	[HEADER_MEM_TOPOLOGY]    = "MEM_TOPOLOGY",
	[HEADER_CLOCKID]         = "CLOCKID",
	[HEADER_DIR_FORMAT]      = "DIR_FORMAT",
	[HEADER_BPF_PROG_INFO]   = "BPF_PROG_INFO",
	[HEADER_BPF_BTF]         = "BPF_BTF",
	[HEADER_COMPRESSED]      = "COMPRESSED",
	[HEADER_CPU_PMU_CAPS]    = "CPU_PMU_CAPS",
	[HEADER_CLOCK_DATA]      = "CLOCK_DATA",
	[HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[HEADER_PMU_CAPS]        = "PMU_CAPS",
};

const char *perf_feature__name(int feat)
{
	if (feat >= 0 && feat < HEADER_LAST_FEATURE && feature_names[feat])
		return feature_names[feat];
	return "UNKNOWN";
}
