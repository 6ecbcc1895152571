# rec_remap maps the code of two libraries at one address, one after the other
WORKLOAD_LDLIBS_rec_remap := -ldl
REC_REMAP_LIBS := $(OUT)/workloads/rec_remap_a.so $(OUT)/workloads/rec_remap_b.so
TEST_TARGETS += $(REC_REMAP_LIBS)

$(OUT)/workloads/rec_remap_a.so: tools/perf/tests/workloads/rec_remap/blob.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fPIC -shared -fno-omit-frame-pointer -DBLOB_NAME=rec_blob_alpha -DBLOB_MUL=3 -o $@ $<

$(OUT)/workloads/rec_remap_b.so: tools/perf/tests/workloads/rec_remap/blob.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fPIC -shared -fno-omit-frame-pointer -DBLOB_NAME=rec_blob_beta -DBLOB_MUL=5 -o $@ $<
