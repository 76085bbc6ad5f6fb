/* ds-trace-profile-out.c: the profile's headline figures, its text and its
 * JSON (docs/trace-format.md "Profile")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ds-trace-profile-private.h"

static double
span_s (const DsTraceProfile *p)
{
  if (!p->has_times || p->first_issue == DS_TRACE_NO_TIME || p->last_issue <= p->first_issue)
    return 0;
  return (double) (p->last_issue - p->first_issue) / 1e9;
}

void
ds_trace_profile_summarise (DsTraceProfile *p)
{
  DsTraceSummary *s = &p->summary;
  uint64_t bytes = 0;
  double span = span_s (p);

  memset (s, 0, sizeof *s);
  for (guint i = 0; i < p->intervals->len; i++)
    {
      const DsTraceInterval *iv = &g_array_index (p->intervals, DsTraceInterval, i);

      s->reads += iv->ops[DS_TRACE_OP_READ];
      s->writes += iv->ops[DS_TRACE_OP_WRITE];
      s->flushes += iv->ops[DS_TRACE_OP_FLUSH];
      s->discards += iv->ops[DS_TRACE_OP_DISCARD];
      for (unsigned op = 0; op < DS_TRACE_N_OPS; op++)
        s->ios += iv->ops[op];
      bytes += iv->bytes[DS_TRACE_OP_READ] + iv->bytes[DS_TRACE_OP_WRITE];
    }
  s->duration_s = span;
  /* n I/Os at a steady rate over a span T: n - 1 gaps. */
  if (span > 0 && s->reads + s->writes > 1)
    {
      s->iops = (double) (s->reads + s->writes - 1) / span;
      s->bytes_per_s = (double) bytes / span;
    }
  if (s->reads + s->writes > 0)
    s->read_share = (double) s->reads / (double) (s->reads + s->writes);
  if (p->sizes->len > 0)
    s->mode_bytes = g_array_index (p->sizes, DsTraceSize, 0).bytes;
  if (p->data_ios > 1)
    s->sequential_share = (double) p->sequential / (double) (p->data_ios - 1);
  if (p->has_latency && p->depth_end > p->first_issue)
    s->mean_depth = p->depth_ns / (double) (p->depth_end - p->first_issue);
  if (p->latency[0].count > 0)
    {
      s->p50_ns = ds_histogram_percentile (&p->latency[0], 50);
      s->p99_ns = ds_histogram_percentile (&p->latency[0], 99);
      s->p999_ns = ds_histogram_percentile (&p->latency[0], 99.9);
    }
}

static const char *
source_name (uint32_t source)
{
  switch (source)
    {
    case DS_TRACE_SOURCE_CAPTURE: return "capture";
    case DS_TRACE_SOURCE_BLKTRACE: return "blktrace";
    case DS_TRACE_SOURCE_FIO_V2: return "fio-iolog-v2";
    case DS_TRACE_SOURCE_FIO_V3: return "fio-iolog-v3";
    default: return "unknown";
    }
}

static double
burst_cv (const DsTraceProfile *p)
{
  if (p->gaps < 2 || p->gap_mean <= 0)
    return 0;
  return sqrt (p->gap_m2 / (double) (p->gaps - 1)) / p->gap_mean;
}

/* The heat map's rows summed over time, for the hottest bands. */
static void
heat_totals (const DsTraceProfile *p,
             uint64_t             *rows)
{
  memset (rows, 0, sizeof (uint64_t) * HEAT_ROWS);
  for (guint i = 0; i < p->intervals->len; i++)
    for (unsigned k = 0; k < HEAT_ROWS; k++)
      rows[k] += g_array_index (p->intervals, DsTraceInterval, i).heat[k];
}

static void
print_summary (const DsTraceProfile *p,
               FILE                 *out)
{
  const DsTraceSummary *s = &p->summary;

  fprintf (out, _("Trace: %s (%s), %" PRIu64 " requests\n"), p->header.device,
           source_name (p->header.source), s->ios);
  if (p->header.lost_events > 0)
    fprintf (out, _("  LOST: the kernel dropped %" PRIu64 " events: figures below miss them\n"),
             p->header.lost_events);
  if (s->duration_s > 0)
    fprintf (out, _("  active %.3f s: %.1f IOPS (reads and writes), %.2f MB/s\n"),
             s->duration_s, s->iops, s->bytes_per_s / 1e6);
  else
    fprintf (out, _("  no issue times in this trace: no rates, depth or latency\n"));
  fprintf (out, _("  mix: %.1f %% reads, %.1f %% writes (%" PRIu64 " reads, %" PRIu64 " writes)\n"),
           100 * s->read_share, s->reads + s->writes ? 100 * (1 - s->read_share) : 0, s->reads, s->writes);
  fprintf (out, _("  flushes: %" PRIu64 " (%.2f/s), FUA writes: %" PRIu64
                  ", preflushes: %" PRIu64 ", discards: %" PRIu64 "\n"),
           s->flushes, s->duration_s > 0 ? (double) s->flushes / s->duration_s : 0, p->fua,
           p->preflush, s->discards);
  if (p->errors > 0 || p->incomplete > 0)
    fprintf (out, _("  errors: %" PRIu64 ", not completed within the trace: %" PRIu64 "\n"),
             p->errors, p->incomplete);
}

static void
print_pattern (const DsTraceProfile *p,
               FILE                 *out)
{
  const DsTraceSummary *s = &p->summary;
  uint64_t rows[HEAT_ROWS];
  uint64_t band = (p->span_bytes + HEAT_ROWS - 1) / HEAT_ROWS;

  fprintf (out, _("Block sizes (most common first):\n"));
  for (guint i = 0; i < p->sizes->len && i < 8; i++)
    {
      const DsTraceSize *z = &g_array_index (p->sizes, DsTraceSize, i);

      fprintf (out, _("  %8u B  %6.2f %%  (%" PRIu64 " reads, %" PRIu64 " writes)\n"),
               z->bytes, 100.0 * (double) (z->reads + z->writes) / (double) MAX (p->data_ios, 1),
               z->reads, z->writes);
    }
  fprintf (out, _("Randomness: %.1f %% sequential (each I/O where the previous ended)\n"),
           100 * s->sequential_share);
  fprintf (out, _("  sequential runs:"));
  for (unsigned k = 0; k < RUN_BUCKETS; k++)
    if (p->runs[k] > 0)
      fprintf (out, " %" PRIu64 "x%s%" PRIu64, p->runs[k], k == 0 ? "" : ">=",
               (uint64_t) 1 << k);
  fprintf (out, _("\n  seek distances:"));
  for (unsigned k = 0; k < SEEK_BUCKETS; k++)
    if (p->seeks[k] > 0)
      fprintf (out, " <%" PRIu64 "B:%" PRIu64, k == 0 ? 1 : (uint64_t) 1 << k, p->seeks[k]);
  fprintf (out, "\n");
  heat_totals (p, rows);
  fprintf (out, _("Hot regions (of %d bands of %.1f MB):\n"), HEAT_ROWS, (double) band / 1e6);
  for (unsigned n = 0; n < 4; n++)
    {
      unsigned best = 0;

      for (unsigned k = 1; k < HEAT_ROWS; k++)
        if (rows[k] > rows[best])
          best = k;
      if (rows[best] == 0)
        break;
      fprintf (out, _("  %.1f-%.1f MB: %.1f %%\n"), (double) (best * band) / 1e6,
               (double) ((best + 1) * band) / 1e6,
               100.0 * (double) rows[best] / (double) MAX (p->data_ios, 1));
      rows[best] = 0;
    }
}

static void
print_time (const DsTraceProfile *p,
            FILE                 *out)
{
  const DsTraceSummary *s = &p->summary;
  double secs = (double) p->interval_ns / 1e9;

  if (!p->has_times)
    return;
  fprintf (out, _("Burstiness: inter-arrival CV %.2f (1: random arrivals, 0: paced), "
                  "peak 10 ms %.0f IOPS\n"), burst_cv (p), (double) p->peak_window * 100.0);
  if (p->has_latency)
    fprintf (out, _("In flight: mean %.2f, max %u\nLatency (production): p50 %.1f µs, p99 %.1f µs, p99.9 %.1f µs\n"),
             s->mean_depth, p->max_depth, s->p50_ns / 1e3, s->p99_ns / 1e3, s->p999_ns / 1e3);
  /* Translators: printf's widths count bytes: a heading's own bytes beyond
   * its characters ("µ" is 2 bytes) widen its width, so that it stands
   * over its column (8 9 8 6 6 7 9 9 9 characters wide). */
  fprintf (out, _("%8s %9s %8s %6s %6s %7s %10s %10s %10s\n"), _("time s"), _("IOPS"), _("MB/s"),
           _("read%"), _("flush"), _("depth"), _("p50 µs"), _("p99 µs"), _("p99.9 µs"));
  for (guint i = 0; i < p->intervals->len; i++)
    {
      const DsTraceInterval *iv = &g_array_index (p->intervals, DsTraceInterval, i);
      uint64_t rw = iv->ops[DS_TRACE_OP_READ] + iv->ops[DS_TRACE_OP_WRITE];

      fprintf (out, "%8.1f %9.1f %8.2f %6.1f %6" PRIu64 " %7.2f %9.1f %9.1f %9.1f\n",
               (double) i * secs, (double) rw / secs,
               (double) (iv->bytes[DS_TRACE_OP_READ] + iv->bytes[DS_TRACE_OP_WRITE]) / secs / 1e6,
               rw ? 100.0 * (double) iv->ops[DS_TRACE_OP_READ] / (double) rw : 0,
               iv->ops[DS_TRACE_OP_FLUSH], iv->depth_ns / (double) p->interval_ns,
               iv->p50 / 1e3, iv->p99 / 1e3, iv->p999 / 1e3);
    }
}

void
ds_trace_profile_print (const DsTraceProfile *p,
                        FILE                 *out)
{
  print_summary (p, out);
  print_pattern (p, out);
  print_time (p, out);
  fprintf (out, _("(A trace holds no data: offsets, sizes, times and operations only.)\n"));
}

static void
add_u64_array (JsonBuilder    *b,
               const char     *name,
               const uint64_t *v,
               unsigned        n)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (unsigned i = 0; i < n; i++)
    json_builder_add_int_value (b, (gint64) v[i]);
  json_builder_end_array (b);
}

static int
cmp_pair (gconstpointer a,
          gconstpointer b)
{
  const uint64_t *x = a, *y = b;

  return x[0] > y[0] ? -1 : x[0] < y[0] ? 1 : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

#define MEMBER_INT(b, name, v) (json_builder_set_member_name (b, name), json_builder_add_int_value (b, (gint64) (v)))
#define MEMBER_DBL(b, name, v) (json_builder_set_member_name (b, name), json_builder_add_double_value (b, (v)))

static void
json_intervals (const DsTraceProfile *p,
                JsonBuilder          *b)
{
  json_builder_set_member_name (b, "intervals");
  json_builder_begin_array (b);
  for (guint i = 0; i < p->intervals->len; i++)
    {
      const DsTraceInterval *iv = &g_array_index (p->intervals, DsTraceInterval, i);

      json_builder_begin_object (b);
      MEMBER_INT (b, "start_ns", (uint64_t) i * p->interval_ns);
      MEMBER_INT (b, "reads", iv->ops[DS_TRACE_OP_READ]);
      MEMBER_INT (b, "writes", iv->ops[DS_TRACE_OP_WRITE]);
      MEMBER_INT (b, "flushes", iv->ops[DS_TRACE_OP_FLUSH]);
      MEMBER_INT (b, "discards", iv->ops[DS_TRACE_OP_DISCARD]);
      MEMBER_INT (b, "read_bytes", iv->bytes[DS_TRACE_OP_READ]);
      MEMBER_INT (b, "write_bytes", iv->bytes[DS_TRACE_OP_WRITE]);
      MEMBER_DBL (b, "mean_depth", iv->depth_ns / (double) p->interval_ns);
      MEMBER_INT (b, "max_depth", iv->max_depth);
      MEMBER_INT (b, "p50_ns", iv->p50);
      MEMBER_INT (b, "p99_ns", iv->p99);
      MEMBER_INT (b, "p99_9_ns", iv->p999);
      add_u64_array (b, "heat", iv->heat, HEAT_ROWS);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
json_pattern (const DsTraceProfile *p,
              JsonBuilder          *b)
{
  json_builder_set_member_name (b, "block_sizes");
  json_builder_begin_array (b);
  for (guint i = 0; i < p->sizes->len && i < 64; i++)
    {
      const DsTraceSize *z = &g_array_index (p->sizes, DsTraceSize, i);

      json_builder_begin_object (b);
      MEMBER_INT (b, "bytes", z->bytes);
      MEMBER_INT (b, "reads", z->reads);
      MEMBER_INT (b, "writes", z->writes);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_u64_array (b, "sequential_runs_log2", p->runs, RUN_BUCKETS);
  add_u64_array (b, "seek_distance_log2", p->seeks, SEEK_BUCKETS);
  MEMBER_INT (b, "heat_band_bytes", (p->span_bytes + HEAT_ROWS - 1) / HEAT_ROWS);
}

static const char *
process_name (const DsTraceProfile *p,
              uint32_t              pid)
{
  for (guint i = 0; i < p->processes->len; i++)
    if (g_array_index (p->processes, DsTraceProcess, i).pid == pid)
      return g_array_index (p->processes, DsTraceProcess, i).comm;
  return "";
}

/* Who did the I/O: pid, name, requests (up to 64 pids, busiest first). */
static void
json_processes (const DsTraceProfile *p,
                JsonBuilder          *b)
{
  g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (uint64_t) * 2);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, p->pid_counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      uint64_t pair[2] = { GPOINTER_TO_SIZE (value), GPOINTER_TO_UINT (key) };

      g_array_append_vals (list, pair, 1);
    }
  g_array_sort (list, cmp_pair);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (guint i = 0; i < list->len && i < 64; i++)
    {
      const uint64_t *pair = (const uint64_t *) list->data + 2 * i;

      json_builder_begin_object (b);
      MEMBER_INT (b, "pid", pair[1]);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, process_name (p, (uint32_t) pair[1]));
      MEMBER_INT (b, "requests", pair[0]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

JsonNode *
ds_trace_profile_to_json (const DsTraceProfile *p)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const DsTraceSummary *s = &p->summary;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, source_name (p->header.source));
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, p->header.device);
  MEMBER_INT (b, "lost_events", p->header.lost_events);
  MEMBER_INT (b, "requests", s->ios);
  MEMBER_INT (b, "reads", s->reads);
  MEMBER_INT (b, "writes", s->writes);
  MEMBER_INT (b, "flushes", s->flushes);
  MEMBER_INT (b, "discards", s->discards);
  MEMBER_INT (b, "fua", p->fua);
  MEMBER_INT (b, "preflush", p->preflush);
  MEMBER_INT (b, "errors", p->errors);
  MEMBER_INT (b, "incomplete", p->incomplete);
  MEMBER_DBL (b, "active_s", s->duration_s);
  MEMBER_DBL (b, "iops", s->iops);
  MEMBER_DBL (b, "bytes_per_s", s->bytes_per_s);
  MEMBER_DBL (b, "read_share", s->read_share);
  MEMBER_INT (b, "mode_bytes", s->mode_bytes);
  MEMBER_DBL (b, "sequential_share", s->sequential_share);
  MEMBER_DBL (b, "interarrival_cv", burst_cv (p));
  MEMBER_DBL (b, "peak_10ms_iops", (double) p->peak_window * 100.0);
  MEMBER_DBL (b, "mean_depth", s->mean_depth);
  MEMBER_INT (b, "max_depth", p->max_depth);
  MEMBER_INT (b, "p50_ns", s->p50_ns);
  MEMBER_INT (b, "p99_ns", s->p99_ns);
  MEMBER_INT (b, "p99_9_ns", s->p999_ns);
  MEMBER_INT (b, "interval_ns", p->interval_ns);
  json_pattern (p, b);
  json_processes (p, b);
  json_intervals (p, b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
