/* ds-params.c: which settings a result's "params" carries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-params.h"

/* The settings members; every run also has target, write, engine, seed. */
enum {
  P_BLOCK = 1 << 0, P_CAPACITY = 1 << 1, P_ACCURACY = 1 << 2, P_PATTERN = 1 << 3,
  P_QUEUE = 1 << 4, P_THREADS = 1 << 5, P_MIX = 1 << 6, P_DURATION = 1 << 7,
  P_RAMP = 1 << 8, P_OFFSET = 1 << 9, P_SPAN = 1 << 10, P_FILE_SIZE = 1 << 11,
  P_BUFFERED = 1 << 12, P_ALIGN = 1 << 13,
};

static const struct {
  unsigned    bit;
  const char *member;
} members[] = {
  { P_BLOCK, "block_size_bytes" },
  { P_CAPACITY, "capacity_bytes" },
  { P_ACCURACY, "accuracy" },
  { P_PATTERN, "pattern" },
  { P_QUEUE, "queue_depth" },
  { P_THREADS, "threads" },
  { P_MIX, "read_mix_percent" },
  { P_DURATION, "duration_s" },
  { P_RAMP, "ramp_s" },
  { P_OFFSET, "offset_bytes" },
  { P_SPAN, "span_bytes" },
  { P_FILE_SIZE, "file_size_bytes" },
  { P_BUFFERED, "buffered" },
  { P_ALIGN, "random_align_bytes" },
};

/* What shapes a run of @spec's kind (what its ds-bench-*.c reads). */
static unsigned
params_for (const DsBenchSpec *spec)
{
  switch (spec->kind)
    {
    case DS_BENCH_TRANSFER:
      return P_BLOCK | P_CAPACITY | P_ACCURACY;
    case DS_BENCH_EXTRA:
    case DS_BENCH_RANDOM_ACCESS:
    case DS_BENCH_BLOCK_SIZE:
      /* A row time of 0 is the kind's default, which the accuracy sets. */
      return P_CAPACITY | P_ACCURACY | (spec->duration_ns != 0 ? P_DURATION : 0);
    case DS_BENCH_FILE:
      return P_ACCURACY | P_FILE_SIZE | P_BUFFERED | (spec->duration_ns != 0 ? P_DURATION : 0);
    case DS_BENCH_WORKLOAD:
      return P_BLOCK | P_PATTERN | P_QUEUE | P_THREADS | P_DURATION | P_RAMP | P_OFFSET | P_SPAN |
             (spec->pattern == DS_PATTERN_RANDRW ? P_MIX : 0);
    case DS_BENCH_ERROR_SCAN:
      return P_BLOCK | P_OFFSET | P_SPAN;
    case DS_BENCH_ERASE:
      return P_BLOCK;
    case DS_BENCH_HEALTH:
    default:
      return 0;
    }
}

gboolean
ds_params_random_offsets (const DsBenchSpec *spec)
{
  switch (spec->kind)
    {
    case DS_BENCH_EXTRA:
    case DS_BENCH_RANDOM_ACCESS:
    case DS_BENCH_FILE:
    case DS_BENCH_MARK:
    case DS_BENCH_CACHE:
    case DS_BENCH_SWEEP:     /* their params keep no pattern: always */
    case DS_BENCH_SUSTAIN:
      return TRUE;
    case DS_BENCH_WORKLOAD:
      return spec->pattern == DS_PATTERN_RANDREAD || spec->pattern == DS_PATTERN_RANDWRITE ||
             spec->pattern == DS_PATTERN_RANDRW;
    case DS_BENCH_TRANSFER:   /* its access times read one logical block */
    default:
      return FALSE;
    }
}

JsonObject *
ds_params_prune (JsonObject        *params,
                 const DsBenchSpec *spec)
{
  unsigned keep = params_for (spec) | (ds_params_random_offsets (spec) ? P_ALIGN : 0);

  for (unsigned i = 0; i < G_N_ELEMENTS (members); i++)
    if (!(keep & members[i].bit) && json_object_has_member (params, members[i].member))
      json_object_remove_member (params, members[i].member);

  return params;
}

JsonObject *
ds_params_fill (JsonObject  *params,
                DsBenchKind  kind)
{
  DsBenchSpec spec;

  ds_bench_spec_init (&spec, kind);

  if (!json_object_has_member (params, "block_size_bytes"))
    json_object_set_int_member (params, "block_size_bytes", (gint64) spec.block_size_bytes);
  if (!json_object_has_member (params, "capacity_bytes"))
    json_object_set_int_member (params, "capacity_bytes", (gint64) spec.capacity_bytes);
  if (!json_object_has_member (params, "accuracy"))
    json_object_set_int_member (params, "accuracy", spec.accuracy);
  if (!json_object_has_member (params, "pattern"))
    json_object_set_string_member (params, "pattern", ds_pattern_to_string (spec.pattern));
  if (!json_object_has_member (params, "queue_depth"))
    json_object_set_int_member (params, "queue_depth", spec.queue_depth);
  if (!json_object_has_member (params, "threads"))
    json_object_set_int_member (params, "threads", spec.threads);
  if (!json_object_has_member (params, "read_mix_percent"))
    json_object_set_int_member (params, "read_mix_percent", spec.read_mix_percent);
  if (!json_object_has_member (params, "duration_s"))
    json_object_set_double_member (params, "duration_s", (double) spec.duration_ns / 1e9);
  if (!json_object_has_member (params, "ramp_s"))
    json_object_set_double_member (params, "ramp_s", (double) spec.ramp_ns / 1e9);
  if (!json_object_has_member (params, "offset_bytes"))
    json_object_set_int_member (params, "offset_bytes", (gint64) spec.offset_bytes);
  if (!json_object_has_member (params, "span_bytes"))
    json_object_set_int_member (params, "span_bytes", (gint64) spec.span_bytes);
  if (!json_object_has_member (params, "file_size_bytes"))
    json_object_set_int_member (params, "file_size_bytes", (gint64) spec.file_size_bytes);
  if (!json_object_has_member (params, "buffered"))
    json_object_set_boolean_member (params, "buffered", spec.buffered);

  ds_bench_spec_clear (&spec);

  return params;
}
