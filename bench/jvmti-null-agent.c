// SPDX-License-Identifier: MIT
/*
 * The floor of bench/jvmti-overhead.sh: a JVMTI agent that asks the JVM for
 * what libperf-jvmti.so asks (capabilities, events) and does nothing in its
 * callbacks. What a JVM pays with it loaded is what the JVM itself costs
 * once those events are on; our agent's own cost is the rest.
 *
 *   java -agentpath:build/bench/jvmti-null-agent.so[=OPTIONS] ...
 * OPTIONS, comma-separated (default: lines):
 *   lines     can_get_line_numbers and can_get_source_file_name too (what ours adds
 *             when the VM has byte-code locations)
 *   nolines   only can_generate_compiled_method_load_events
 *   nocaps    no capability at all (and so no event): the cost of an idle JVMTI env
 *   noevents  the capabilities, but no event enabled (an idle agent that kept them)
 *   nostubs   CompiledMethodLoad only, not DynamicCodeGenerated
 */
#include <jvmti.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void JNICALL null_compiled_method_load(jvmtiEnv *env, jmethodID method, jint code_size,
					      const void *code_addr, jint map_length,
					      const jvmtiAddrLocationMap *map, const void *compile_info)
{
}

static void JNICALL null_dynamic_code_generated(jvmtiEnv *env, const char *name, const void *address,
						jint length)
{
}

static bool has_option(const char *options, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = options; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	jvmtiEventCallbacks cb;
	jvmtiCapabilities caps;
	jvmtiEnv *env = NULL;
	jvmtiError err = JVMTI_ERROR_NONE;

	if ((*vm)->GetEnv(vm, (void **)&env, JVMTI_VERSION_1) != JNI_OK || !env) {
		fprintf(stderr, "jvmti-null-agent: no JVMTI environment\n");
		return JNI_ERR;
	}
	if (has_option(options, "nocaps"))
		return JNI_OK;
	memset(&caps, 0, sizeof(caps));
	caps.can_generate_compiled_method_load_events = 1;
	if (!has_option(options, "nolines"))
		caps.can_get_line_numbers = caps.can_get_source_file_name = 1;
	err = (*env)->AddCapabilities(env, &caps);
	if (err == JVMTI_ERROR_NONE && !has_option(options, "noevents")) {
		memset(&cb, 0, sizeof(cb));
		cb.CompiledMethodLoad = null_compiled_method_load;
		cb.DynamicCodeGenerated = null_dynamic_code_generated;
		err = (*env)->SetEventCallbacks(env, &cb, sizeof(cb));
		if (err == JVMTI_ERROR_NONE)
			err = (*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_COMPILED_METHOD_LOAD,
							       NULL);
		if (err == JVMTI_ERROR_NONE && !has_option(options, "nostubs"))
			err = (*env)->SetEventNotificationMode(env, JVMTI_ENABLE,
							       JVMTI_EVENT_DYNAMIC_CODE_GENERATED, NULL);
	}
	if (err != JVMTI_ERROR_NONE) {
		fprintf(stderr, "jvmti-null-agent: JVMTI error %d\n", (int)err);
		return JNI_ERR;
	}
	return JNI_OK;
}
