// SPDX-License-Identifier: MIT
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "java-names.h"
#include "method-cache.h"

/* open addressing, grown at 1/2 load; entries are immutable once published */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct method_info **slots;
static size_t nr_slots, nr_used;
static bool raw;
static bool lines_wanted;

/*
 * Source paths are interned: all methods of a class share one string, so the
 * inline record's string table can dedup by pointer.
 */
static char **files;
static size_t nr_files_slots, nr_files;

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* takes ownership of f; called with cache_lock held; NULL when out of memory */
static char *intern_file_locked(char *f)
{
	size_t i;

	if ((nr_files + 1) * 2 > nr_files_slots) {
		size_t n = nr_files_slots ? nr_files_slots * 2 : 256;
		char **t = calloc(n, sizeof(*t));

		if (!t) {
			free(f);
			return NULL;
		}
		for (size_t k = 0; k < nr_files_slots; k++) {
			if (!files[k])
				continue;
			for (i = hash_str(files[k]) & (n - 1); t[i]; i = (i + 1) & (n - 1))
				;
			t[i] = files[k];
		}
		free(files);
		files = t;
		nr_files_slots = n;
	}
	for (i = hash_str(f) & (nr_files_slots - 1); files[i]; i = (i + 1) & (nr_files_slots - 1)) {
		if (!strcmp(files[i], f)) {
			free(f);
			return files[i];
		}
	}
	files[i] = f;
	nr_files++;
	return f;
}

static struct method_info unknown_method = { NULL, "[unknown Java method]", "", 0, NULL };

void method_cache_init(bool raw_names, bool want_lines)
{
	raw = raw_names;
	lines_wanted = want_lines;
}

static size_t hash_id(jmethodID m)
{
	uint64_t x = (uint64_t)(uintptr_t)m;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

static struct method_info *lookup_locked(jmethodID m)
{
	if (!nr_slots)
		return NULL;
	for (size_t i = hash_id(m) & (nr_slots - 1);; i = (i + 1) & (nr_slots - 1)) {
		if (!slots[i])
			return NULL;
		if (slots[i]->id == m)
			return slots[i];
	}
}

static bool insert_locked(struct method_info *mi)
{
	if ((nr_used + 1) * 2 > nr_slots) {
		size_t n = nr_slots ? nr_slots * 2 : 1024;
		struct method_info **s = calloc(n, sizeof(*s));

		if (!s)
			return false;
		for (size_t i = 0; i < nr_slots; i++) {
			if (!slots[i])
				continue;
			for (size_t j = hash_id(slots[i]->id) & (n - 1);; j = (j + 1) & (n - 1)) {
				if (!s[j]) {
					s[j] = slots[i];
					break;
				}
			}
		}
		free(slots);
		slots = s;
		nr_slots = n;
	}
	for (size_t i = hash_id(mi->id) & (nr_slots - 1);; i = (i + 1) & (nr_slots - 1)) {
		if (!slots[i]) {
			slots[i] = mi;
			nr_used++;
			return true;
		}
	}
}

static int cmp_line(const void *a, const void *b)
{
	const struct line_entry *x = a, *y = b;

	return x->bci < y->bci ? -1 : x->bci > y->bci;
}

static struct method_info *describe(jvmtiEnv *env, jmethodID m)
{
	char *mname = NULL, *msig = NULL, *csig = NULL, *src = NULL;
	jvmtiLineNumberEntry *tab = NULL;
	jint ntab = 0;
	jclass klass = NULL;
	struct method_info *mi = calloc(1, sizeof(*mi));

	if (!mi)
		return NULL;
	mi->id = m;
	if ((*env)->GetMethodName(env, m, &mname, &msig, NULL) != JVMTI_ERROR_NONE ||
	    (*env)->GetMethodDeclaringClass(env, m, &klass) != JVMTI_ERROR_NONE ||
	    (*env)->GetClassSignature(env, klass, &csig, NULL) != JVMTI_ERROR_NONE)
		goto fail;
	mi->name = raw ? java_raw_name(csig, mname, msig) : java_readable_name(csig, mname, msig);
	if (!mi->name)
		goto fail;
	if (lines_wanted && (*env)->GetSourceFileName(env, klass, &src) == JVMTI_ERROR_NONE)
		mi->file = java_source_path(csig, src);
	if (!mi->file)
		mi->file = strdup("");
	if (!mi->file)
		goto fail;
	if (lines_wanted && (*env)->GetLineNumberTable(env, m, &ntab, &tab) == JVMTI_ERROR_NONE &&
	    ntab > 0) {
		mi->lines = malloc(ntab * sizeof(*mi->lines));
		if (mi->lines) {
			for (jint i = 0; i < ntab; i++) {
				mi->lines[i].bci = tab[i].start_location;
				mi->lines[i].line = tab[i].line_number;
			}
			mi->nr_lines = ntab;
			qsort(mi->lines, ntab, sizeof(*mi->lines), cmp_line);
		}
	}
	(*env)->Deallocate(env, (unsigned char *)mname);
	(*env)->Deallocate(env, (unsigned char *)msig);
	(*env)->Deallocate(env, (unsigned char *)csig);
	if (src)
		(*env)->Deallocate(env, (unsigned char *)src);
	if (tab)
		(*env)->Deallocate(env, (unsigned char *)tab);
	return mi;
fail:
	if (mname)
		(*env)->Deallocate(env, (unsigned char *)mname);
	if (msig)
		(*env)->Deallocate(env, (unsigned char *)msig);
	if (csig)
		(*env)->Deallocate(env, (unsigned char *)csig);
	if (src)
		(*env)->Deallocate(env, (unsigned char *)src);
	free(mi->name);
	free(mi->file);
	free(mi);
	return NULL;
}

static void free_info(struct method_info *mi)
{
	free(mi->name);
	free(mi->lines);
	free(mi);
}

const struct method_info *method_cache_get(jvmtiEnv *env, jmethodID m)
{
	struct method_info *mi, *other;

	pthread_mutex_lock(&cache_lock);
	mi = lookup_locked(m);
	pthread_mutex_unlock(&cache_lock);
	if (mi)
		return mi;
	/* JVMTI calls outside the lock; two threads may race, the loser frees its copy */
	mi = describe(env, m);
	if (!mi)
		return &unknown_method;
	pthread_mutex_lock(&cache_lock);
	other = lookup_locked(m);
	if (!other) {
		mi->file = intern_file_locked(mi->file);
		if (!mi->file || !insert_locked(mi))
			other = &unknown_method;
	} else
		free(mi->file);
	pthread_mutex_unlock(&cache_lock);
	if (other) {
		free_info(mi);
		return other;
	}
	return mi;
}

jint method_line(const struct method_info *mi, jint bci)
{
	int lo = 0, hi = mi->nr_lines - 1, best = -1;

	if (!mi->nr_lines)
		return 0;
	/* -1: the VM has no bytecode for this pc yet (method entry): the first line */
	if (bci < 0)
		bci = 0;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (mi->lines[mid].bci <= bci) {
			best = mid;
			lo = mid + 1;
		} else
			hi = mid - 1;
	}
	return best < 0 ? 0 : mi->lines[best].line;
}
