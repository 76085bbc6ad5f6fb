/* ds-bench-cache.c: the cache probe (see ds-bench-cache.h): per working
 * set, a prefill pass and a timed random read, both workload runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "ds-params.h"
#include "ds-bench-cache.h"
#include "ds-bench-workload.h"
#include "ds-error.h"
#include "ds-run.h"
#include "ds-clock.h"
#include "ds-words.h"

/* The prefill reads in blocks of this size, this many at once. */
#define PREFILL_BLOCK_BYTES (UINT64_C (1) << 20)
#define PREFILL_DEPTH       4u

DsCacheData *
ds_cache_data_new (void)
{
  DsCacheData *data = g_new0 (DsCacheData, 1);

  data->sets = g_array_new (FALSE, TRUE, sizeof (DsCacheSet));
  return data;
}

void
ds_cache_data_free (DsCacheData *data)
{
  if (data == NULL)
    return;

  g_clear_pointer (&data->sets, g_array_unref);
  g_free (data);
}

static gpointer
cache_data_new (void)
{
  return ds_cache_data_new ();
}

static void
cache_data_free (gpointer data)
{
  ds_cache_data_free (data);
}

static gboolean
is_slow (double iops,
         double ref_iops)
{
  return iops < DS_CACHE_FAST_FRACTION * ref_iops;
}

const char *
ds_cache_verdict_name (DsCacheVerdict verdict)
{
  static const char *const names[] = {
    [DS_CACHE_VERDICT_CACHE] = "cache",
    [DS_CACHE_VERDICT_TOO_FEW] = "too_few_sets",
    [DS_CACHE_VERDICT_NO_EDGE] = "no_edge",
    [DS_CACHE_VERDICT_SLOW_ONCE] = "slow_once",
    [DS_CACHE_VERDICT_NOISE] = "noise",
  };

  return (unsigned) verdict < G_N_ELEMENTS (names) ? names[verdict] : "no_edge";
}

gboolean
ds_cache_wants_repeat (const DsCacheEstimate *estimate)
{
  return estimate->verdict == DS_CACHE_VERDICT_SLOW_ONCE;
}

void
ds_cache_estimate (const GArray    *sets,
                   DsCacheEstimate *ret)
{
  g_autoptr (GArray) done = g_array_new (FALSE, FALSE, sizeof (DsCacheSet));
  const DsCacheSet *s;
  const DsCacheSet *fast;
  DsCacheSet slow;
  guint edge;

  *ret = (DsCacheEstimate) { .verdict = DS_CACHE_VERDICT_TOO_FEW };
  for (guint i = 0; i < sets->len; i++)
    if (g_array_index (sets, DsCacheSet, i).complete)
      g_array_append_val (done, g_array_index (sets, DsCacheSet, i));
  if (done->len == 0)
    return;

  s = (const DsCacheSet *) done->data;
  ret->hot_latency_s = s[0].lat_mean_s;
  ret->cold_latency_s = s[done->len - 1].lat_mean_s;
  if (done->len < 2 || !(s[0].iops > 0))
    return;

  /* The edge: the first of the slow sets that end the probe (a slow set
   * with fast ones after it was noise, or a cache's odd moment). */
  ret->verdict = DS_CACHE_VERDICT_NO_EDGE;
  for (edge = done->len; edge > 1 && is_slow (s[edge - 1].iops, s[0].iops); edge--)
    ;
  if (edge == done->len)
    return;

  fast = &s[edge - 1];
  slow = s[edge];
  ret->largest_fast_bytes = fast->bytes;
  ret->first_slow_bytes = slow.bytes;
  if (edge == done->len - 1)
    {
      /* One slow set: only a second measurement that agrees makes it an
       * edge; the figures are then the two measurements' means. */
      if (!slow.repeated)
        {
          ret->verdict = DS_CACHE_VERDICT_SLOW_ONCE;
          return;
        }
      if (!is_slow (slow.repeat_iops, s[0].iops))
        {
          /* The largest set's access time is the measurement that was not
           * the noise. */
          ret->verdict = DS_CACHE_VERDICT_NOISE;
          ret->cold_latency_s = slow.repeat_lat_mean_s;
          return;
        }
      slow.iops = (slow.iops + slow.repeat_iops) / 2;
      slow.lat_mean_s = (slow.lat_mean_s + slow.repeat_lat_mean_s) / 2;
    }

  /* Cold: the slowest set past the edge (the largest may still hit a
   * little, and one set is noisy). */
  ret->cold_latency_s = slow.lat_mean_s;
  for (guint i = edge + 1; i < done->len; i++)
    ret->cold_latency_s = MAX (ret->cold_latency_s, s[i].lat_mean_s);
  ret->verdict = DS_CACHE_VERDICT_CACHE;
  ret->found = TRUE;
  ret->drop_ratio = fast->iops > 0 ? slow.iops / fast->iops : 0;
  ret->estimate_bytes = (double) fast->bytes;
  if (ret->cold_latency_s > ret->hot_latency_s)
    {
      double h = (ret->cold_latency_s - slow.lat_mean_s) /
                 (ret->cold_latency_s - ret->hot_latency_s);

      ret->estimate_bytes = MAX (ret->estimate_bytes, CLAMP (h, 0.0, 1.0) * (double) slow.bytes);
    }
}

/* The write variant: a set S written once past a write-back cache of C
 * takes C at the hot pace and S − C at the cold one, so its time, S × its
 * mean latency, grows linearly with S past the cache: the two largest
 * slow sets give the cold pace (the slope), and the largest then C.  The
 * read rule's interpolation cannot be used here: it needs the cold figure
 * of a set the cache no longer helps at all, and a set written once past
 * a write cache is always partly helped. */
void
ds_cache_estimate_writes (const GArray    *sets,
                          DsCacheEstimate *ret)
{
  g_autoptr (GArray) done = g_array_new (FALSE, FALSE, sizeof (DsCacheSet));
  const DsCacheSet *a, *b;
  double cold, c;

  ds_cache_estimate (sets, ret);
  if (!ret->found)
    return;
  for (guint i = 0; i < sets->len; i++)
    if (g_array_index (sets, DsCacheSet, i).complete)
      g_array_append_val (done, g_array_index (sets, DsCacheSet, i));
  if (done->len < 3)
    return;
  a = &g_array_index (done, DsCacheSet, done->len - 2);
  b = &g_array_index (done, DsCacheSet, done->len - 1);
  /* Both past the edge (the largest is, or there would be no estimate). */
  if (a->bytes <= ret->largest_fast_bytes || b->bytes <= a->bytes)
    return;
  cold = ((double) b->bytes * b->lat_mean_s - (double) a->bytes * a->lat_mean_s) /
         (double) (b->bytes - a->bytes);
  if (!(cold > ret->hot_latency_s) || !(cold >= b->lat_mean_s))
    return;
  c = (double) b->bytes * (cold - b->lat_mean_s) / (cold - ret->hot_latency_s);
  if (!(c > 0) || c > (double) a->bytes)
    return;
  ret->estimate_bytes = c;
  ret->cold_latency_s = cold;
}

/* ---- the run ------------------------------------------------------------ */

/* A flush: the device's write-back cache written out (fdatasync sends the
 * disk a FLUSH when it says it caches writes), so a set starts empty. */
static int
flush_cache (DsRun   *run,
             GError **error)
{
  if (fdatasync (run->target->fd) != 0)
    {
      int e = errno;

      g_set_error (error, DS_ERROR, ds_error_from_errno (e), _("%s: flushing its write cache: %s"),
                   run->target->path, g_strerror (e));
      return -e;
    }
  return 0;
}

/* The write variant's set: flushed, written once at random, then read at
 * random for the set time. */
static int
measure_write_set (DsRun       *run,
                   DsCacheSet  *set,
                   unsigned     index,
                   double       from,
                   double       to,
                   GError     **error)
{
  g_auto (DsBenchSpec) w = { 0 };
  DsWorkloadHooks once = { .one_pass = TRUE };
  DsWorkloadData *writes = ds_workload_data_new ();
  DsWorkloadData *reads;
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .name = "flush", .index = index, .bytes = set->bytes };
  int r;

  ds_run_emit (run, &phase);
  r = flush_cache (run, error);
  if (r < 0)
    {
      ds_workload_data_free (writes);
      return r;
    }

  ds_bench_spec_init_from (&w, DS_BENCH_WORKLOAD, run->spec);
  w.pattern = DS_PATTERN_RANDWRITE;
  w.offset_bytes = 0;
  w.span_bytes = set->bytes;
  w.ramp_ns = 0;
  w.duration_ns = 0;      /* the whole set once, however long it takes */
  phase.name = "write";
  ds_run_emit (run, &phase);
  r = ds_workload_measure_hooked (run, &w, &once, writes, from, (from + to) / 2, error);
  set->ios = writes->write.ios;
  set->iops = writes->write.iops;
  set->bytes_per_s = writes->write.bytes_per_s;
  set->lat_mean_s = writes->write.lat_mean_s;
  set->lat_p99_s = writes->write.lat_percentile_s[12];   /* p99 */
  ds_workload_data_free (writes);
  if (r < 0)
    return r;

  ds_bench_spec_clear (&w);
  ds_bench_spec_init_from (&w, DS_BENCH_WORKLOAD, run->spec);
  w.pattern = DS_PATTERN_RANDREAD;
  w.offset_bytes = 0;
  w.span_bytes = set->bytes;
  phase.name = "random";
  ds_run_emit (run, &phase);
  reads = ds_workload_data_new ();
  r = ds_workload_measure_hooked (run, &w, NULL, reads, (from + to) / 2, to, error);
  set->read_lat_mean_s = reads->read.lat_mean_s;
  set->read_lat_p99_s = reads->read.lat_percentile_s[12];
  ds_workload_data_free (reads);
  return r;
}

/* The timed random reads over the first set->bytes: its figures. */
static int
time_random_reads (DsRun       *run,
                   DsCacheSet  *set,
                   double       from,
                   double       to,
                   GError     **error)
{
  g_auto (DsBenchSpec) w = { 0 };
  DsWorkloadData *result = ds_workload_data_new ();
  int r;

  ds_bench_spec_init_from (&w, DS_BENCH_WORKLOAD, run->spec);
  w.pattern = DS_PATTERN_RANDREAD;
  w.offset_bytes = 0;
  w.span_bytes = set->bytes;
  r = ds_workload_measure_hooked (run, &w, NULL, result, from, to, error);
  set->ios = result->read.ios;
  set->iops = result->read.iops;
  set->bytes_per_s = result->read.bytes_per_s;
  set->lat_mean_s = result->read.lat_mean_s;
  set->lat_p99_s = result->read.lat_percentile_s[12];   /* p99 */
  ds_workload_data_free (result);
  return r;
}

static int
measure_set (DsRun       *run,
             DsCacheData *data,
             uint64_t     bytes,
             double       from,
             double       to,
             GError     **error)
{
  g_auto (DsBenchSpec) w = { 0 };
  DsWorkloadHooks once = { .one_pass = TRUE };
  DsWorkloadData *result = ds_workload_data_new ();
  DsCacheSet set = { .bytes = bytes };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .name = "prefill", .index = data->sets->len,
                     .bytes = bytes };
  DsSample row = { .kind = DS_SAMPLE_ROW, .name = "set", .index = data->sets->len,
                   .bytes = bytes };
  int r;

  if (data->write)
    {
      r = measure_write_set (run, &set, data->sets->len, from, to, error);
      set.complete = r == 0;
      goto counted;
    }

  /* The prefill: the whole set, once, sequentially; not counted. */
  ds_bench_spec_init_from (&w, DS_BENCH_WORKLOAD, run->spec);
  w.pattern = DS_PATTERN_READ;
  w.offset_bytes = 0;
  w.span_bytes = bytes;
  w.block_size_bytes = MIN (PREFILL_BLOCK_BYTES, bytes);
  w.queue_depth = PREFILL_DEPTH;
  /* An engine the user chose that queues one I/O (sync) prefills with one. */
  if (!run->engine_auto && run->engine->max_depth < PREFILL_DEPTH && !run->engine->fan_out)
    w.queue_depth = run->engine->max_depth;
  w.threads = 1;
  w.ramp_ns = 0;
  w.duration_ns = 0;      /* to the set's end, however long it takes */
  ds_run_emit (run, &phase);
  r = ds_workload_measure_hooked (run, &w, &once, result, from, from, error);
  if (r < 0)
    goto out;

  /* The timed random reads over it. */
  phase.name = "random";
  ds_run_emit (run, &phase);
  r = time_random_reads (run, &set, from, to, error);
  set.complete = r == 0;

counted:
  if (set.ios > 0)
    {
      g_array_append_val (data->sets, set);
      (data->write ? ds_cache_estimate_writes : ds_cache_estimate) (data->sets, &data->estimate);
      row.value = set.iops;
      row.detail = &set;
      ds_run_emit (run, &row);
    }

out:
  ds_workload_data_free (result);
  return r;
}

/* The largest set, alone slow: measured again (the sets before it stay
 * as they were, read or written just before), so that one moment of
 * other I/O is not taken for a cache's edge. */
static int
repeat_largest (DsRun       *run,
                DsCacheData *data,
                double       from,
                double       to,
                GError     **error)
{
  guint index = data->sets->len - 1;
  DsCacheSet again = { .bytes = g_array_index (data->sets, DsCacheSet, index).bytes };
  DsSample phase = { .kind = DS_SAMPLE_PHASE, .name = "repeat", .index = index,
                     .bytes = again.bytes };
  DsSample row = { .kind = DS_SAMPLE_ROW, .name = "set", .index = index, .bytes = again.bytes };
  DsCacheSet *last;
  int r;

  ds_run_emit (run, &phase);
  r = data->write ? measure_write_set (run, &again, index, from, to, error)
                  : time_random_reads (run, &again, from, to, error);
  if (r < 0 || again.ios == 0)
    return r;

  last = &g_array_index (data->sets, DsCacheSet, index);
  last->repeated = TRUE;
  last->repeat_iops = again.iops;
  last->repeat_lat_mean_s = again.lat_mean_s;
  last->repeat_lat_p99_s = again.lat_p99_s;
  (data->write ? ds_cache_estimate_writes : ds_cache_estimate) (data->sets, &data->estimate);
  row.value = last->iops;
  row.detail = last;
  ds_run_emit (run, &row);
  return 0;
}

static gboolean
cache_run (DsRun   *run,
           GError **error)
{
  DsCacheData *data = run->result->data;
  const DsBenchSpec *spec = run->spec;
  uint64_t max = run->target->size_bytes;
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (uint64_t));

  if (spec->span_bytes != 0)
    max = MIN (max, spec->span_bytes);
  max = ds_align_down (max, spec->block_size_bytes);
  if (max < spec->block_size_bytes)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("%s is smaller than one block"),
                   run->target->path);
      return FALSE;
    }

  for (uint64_t s = DS_CACHE_FIRST_SET_BYTES; s < max && sizes->len < DS_CACHE_MAX_SETS - 1; s *= 2)
    g_array_append_val (sizes, s);
  g_array_append_val (sizes, max);

  data->write = spec->write;
  data->block_size_bytes = spec->block_size_bytes;
  data->queue_depth = spec->queue_depth;
  data->set_time_s = (double) spec->duration_ns / 1e9;

  /* Progress in sets, one more for a second measurement of the largest. */
  for (guint i = 0; i < sizes->len; i++)
    {
      int r = measure_set (run, data, g_array_index (sizes, uint64_t, i),
                           (double) i / (sizes->len + 1), (double) (i + 1) / (sizes->len + 1),
                           error);

      if (r < 0)
        return ds_run_ok (run, r, error);
    }
  if (ds_cache_wants_repeat (&data->estimate))
    {
      int r = repeat_largest (run, data, (double) sizes->len / (sizes->len + 1), 1.0, error);

      if (r < 0)
        return ds_run_ok (run, r, error);
    }

  ds_run_set_progress (run, 1.0);
  return TRUE;
}

static JsonNode *
cache_to_json (const DsResult *result)
{
  return ds_cache_data_to_json (result->data);
}

static gpointer
cache_from_json (JsonObject  *results,
                 GError     **error)
{
  return ds_cache_data_from_json (results, error);
}

static void
cache_settings (const DsBenchSpec *spec,
                const DsResult    *result,
                GPtrArray         *parts)
{
  (void) result;
  if (spec->write)
    g_ptr_array_add (parts, g_strdup (_("write-back cache")));
  ds_words_add_block (parts, spec->block_size_bytes);
  ds_words_add_queue (parts, spec->queue_depth);
  if (spec->span_bytes > 0)
    g_ptr_array_add (parts, ds_words_capacity (spec->span_bytes));
  g_ptr_array_add (parts, g_strdup_printf (_("%g s a working set"), spec->duration_ns / 1e9));
}

static gpointer
cache_detail_copy (gconstpointer detail)
{
  return g_memdup2 (detail, sizeof (DsCacheSet));
}

/* The block, depth, largest set and time per set a probe read with. */
static unsigned
cache_params (const DsBenchSpec *spec)
{
  (void) spec;
  return DS_PARAM_BLOCK | DS_PARAM_QUEUE | DS_PARAM_DURATION | DS_PARAM_SPAN;
}

const DsBenchOps ds_bench_cache = {
  .kind = DS_BENCH_CACHE,
  .name = "cache",
  .title = "Cache Probe",
  .opens_target = TRUE,
  .data_new = cache_data_new,
  .data_free = cache_data_free,
  .run = cache_run,
  .to_json = cache_to_json,
  .from_json = cache_from_json,
  .report = ds_cache_report,
  .writes = DS_BENCH_WRITES_OPTION,   /* --write: the write-back cache probe */
  .default_block_bytes = 4096,
  .default_duration_ns = 5 * DS_NS_PER_SEC,
  .spec_flags = DS_BENCH_SPEC_SERIES | DS_BENCH_SPEC_ROWS_ACCURACY,
  .check_target = ds_bench_check_block_aligned,
  .random_offsets = ds_bench_random_offsets_always,
  .settings = cache_settings,
  .params = cache_params,
  .detail_copy = cache_detail_copy,
  .detail_free = g_free,
  .compare_rows = ds_cache_compare_rows,
  .compare_curves = ds_cache_compare_curves,
  .fio_job = ds_cache_fio_job,
};
