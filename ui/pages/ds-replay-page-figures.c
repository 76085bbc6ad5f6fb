/* ds-replay-page-figures.c: the Replay page's table, and what it reads
 * of the replay kind's specs, samples and results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-interval.h"
#include "ds-page.h"
#include "ds-probe-pages.h"
#include "ds-replay-page-private.h"

static char *
format_latency (uint64_t ns)
{
  return ns > 0 ? ds_format_ms_l10n (ns / 1e9) : NULL;
}

static char *
format_seconds (double s)
{
  return s > 0 ? ds_format_ms_l10n (s) : NULL;
}

static char *
format_share (double share)
{
  return share >= 0 ? g_strdup_printf (_("%.1f %%"), share * 100) : NULL;
}

/* One row of the table: the figure, as recorded, as replayed (NULL: a dash). */
static void
add_row (GtkGrid      *table,
         guint        *row,
         const char   *title,
         char         *recorded,
         char         *replayed)
{
  ds_table_set_cell (table, *row, 0, title);
  ds_table_set_cell (table, *row, 1, recorded);
  ds_table_set_cell (table, *row, 2, replayed);
  (*row)++;
  g_free (recorded);
  g_free (replayed);
}

void
_ds_replay_page_fill_table (GtkGrid                   *table,
                            DsUnits                    units,
                            const DsTraceSummary      *s,
                            const DsReplayData        *r)
{
  guint row = 1;

  ds_table_remove_rows (table);
  if (s == NULL && r == NULL)
    return;

  add_row (table, &row, _("IOPS"), s ? ds_probe_format_iops (s->iops) : NULL,
           r ? ds_probe_format_iops (r->achieved_iops) : NULL);
  add_row (table, &row, _("Requests"),
           s ? g_strdup_printf ("%" G_GUINT64_FORMAT, s->reads + s->writes) : NULL,
           r ? g_strdup_printf ("%" G_GUINT64_FORMAT, r->reads + r->writes) : NULL);
  add_row (table, &row, _("Reads"), s ? format_share (s->read_share) : NULL,
           r && r->reads + r->writes > 0 ? format_share ((double) r->reads / (r->reads + r->writes)) : NULL);
  add_row (table, &row, _("Time"), s ? g_strdup_printf (_("%.1f s"), s->duration_s) : NULL,
           r ? g_strdup_printf (_("%.1f s"), r->duration_s) : NULL);
  add_row (table, &row, _("Throughput"), s ? ds_format_rate_l10n (s->bytes_per_s, units) : NULL,
           r && r->duration_s > 0 ? ds_format_rate_l10n (r->bytes / r->duration_s, units) : NULL);
  add_row (table, &row, _("Most common block"), s && s->mode_bytes ? ds_format_block (s->mode_bytes) : NULL,
           NULL);
  add_row (table, &row, _("Sequential"), s ? format_share (s->sequential_share) : NULL, NULL);
  add_row (table, &row, _("Mean depth"), s && s->mean_depth > 0 ? g_strdup_printf ("%.2f", s->mean_depth) : NULL,
           NULL);
  add_row (table, &row, _("Latency p50"), s ? format_latency (s->p50_ns) : NULL,
           r ? format_seconds (r->p50_s) : NULL);
  add_row (table, &row, _("Latency p99"), s ? format_latency (s->p99_ns) : NULL,
           r ? format_seconds (r->p99_s) : NULL);
  add_row (table, &row, _("Latency p99.9"), s ? format_latency (s->p999_ns) : NULL,
           r ? format_seconds (r->p999_s) : NULL);
  if (r == NULL)
    goto done;
  add_row (table, &row, _("Issued within 100 µs of its time"), NULL, format_share (r->within_100us));
  if (r->within_100us < 0.99)
    ds_table_add_row_class (table, row - 1, "warning");
  add_row (table, &row, _("Issued within 1 ms of its time"), NULL, format_share (r->within_1ms));
  add_row (table, &row, _("Late, p99"), NULL, format_seconds (r->late_p99_s));
  if (r->waited > 0)
    {
      add_row (table, &row, _("Waited for a free slot"), NULL,
               g_strdup_printf ("%" G_GUINT64_FORMAT, r->waited));
      ds_table_add_row_class (table, row - 1, "warning");
    }
  if (r->wrapped > 0)
    {
      add_row (table, &row, _("Wrapped past the disk's end"), NULL,
               g_strdup_printf ("%" G_GUINT64_FORMAT, r->wrapped));
      ds_table_add_row_class (table, row - 1, "warning");
    }

done:
  ds_table_align_column (table, 0, 0, TRUE);
}


/* ---- The replay kind, as the page sees it -------------------------------- */

gboolean
_ds_replay_page_configure_spec (DsBenchSpec  *spec,
                                const char   *trace,
                                double        speed,
                                gboolean      reads_only,
                                GError      **error)
{
  DsReplayOptions *options = ds_replay_options (spec);

  g_free (options->trace_path);
  options->trace_path = g_strdup (trace);
  options->speed = speed;
  options->reads_only = reads_only;
  /* A trace's writes overwrite the disk: the window asks for its name. */
  spec->write = !reads_only;
  /* A point of the replayed curve every 250 ms, as the recorded one. */
  spec->interval_ns = 250 * G_GUINT64_CONSTANT (1000000);

  return TRUE;
}

void
_ds_replay_page_spec_speed (const DsBenchSpec *spec,
                            double            *ret_speed)
{
  const DsReplayOptions *options = spec->kind == DS_BENCH_REPLAY ? ds_replay_options_const (spec) : NULL;

  *ret_speed = options != NULL && options->speed > 0 ? options->speed : 1;
}

gboolean
_ds_replay_page_sample_point (const DsSample *sample,
                              double         *ret_t_s,
                              double         *ret_iops,
                              double         *ret_p99_s)
{
  const DsIntervalPoint *point = sample->interval;

  if (sample->kind != DS_SAMPLE_INTERVAL || point == NULL)
    return FALSE;
  *ret_t_s = point->t_s;
  *ret_iops = point->read.iops + point->write.iops;
  *ret_p99_s = MAX (point->read.p99_s, point->write.p99_s);

  return TRUE;
}

const char *
_ds_replay_page_result_spec (const DsResult *result,
                             double         *ret_speed,
                             gboolean       *ret_reads_only)
{
  const DsReplayOptions *options;

  if (result->kind != DS_BENCH_REPLAY)
    return NULL;
  options = ds_replay_options_const (&result->spec);
  if (options == NULL)
    return NULL;
  *ret_speed = options->speed > 0 ? options->speed : 1;
  *ret_reads_only = options->reads_only;

  return options->trace_path;
}

const DsReplayData *
_ds_replay_page_result_figures (const DsResult *result,
                                DsSeries       *iops,
                                DsSeries       *p99)
{
  const DsReplayData *data = result->kind == DS_BENCH_REPLAY ? result->data : NULL;

  for (guint i = 0; data != NULL && data->series != NULL && i < data->series->len; i++)
    {
      DsSample sample = { .kind = DS_SAMPLE_INTERVAL,
                          .interval = &g_array_index (data->series, DsIntervalPoint, i) };
      double t_s, v, p99_s;

      if (!_ds_replay_page_sample_point (&sample, &t_s, &v, &p99_s))
        continue;
      ds_series_append (iops, t_s, v, 0);
      if (p99_s > 0)
        ds_series_append (p99, t_s, p99_s, 0);
    }

  return data;
}

char *
_ds_replay_page_finding (const DsReplayData *r,
                         double              speed)
{
  g_autofree char *achieved = ds_probe_format_iops (r->achieved_iops);
  g_autofree char *recorded = ds_probe_format_iops (r->recorded_iops);
  g_autofree char *p99 = r->p99_s > 0 ? ds_format_ms_l10n (r->p99_s) : g_strdup ("–");
  g_autofree char *base = r->has_capture && r->capture.p99_s > 0 ? ds_format_ms_l10n (r->capture.p99_s) : NULL;
  g_autofree char *latency = NULL;
  double share = r->recorded_iops > 0 ? r->achieved_iops / r->recorded_iops * 100 : 0;

  latency = base != NULL ?
            /* Translators: "p99 0.42 ms (recorded: 1.80 ms)" */
            g_strdup_printf (_("p99 %s (recorded: %s)"), p99, base) :
            g_strdup_printf (_("p99 %s"), p99);
  if (r->within_100us < DS_REPLAY_FIDELITY_MIN)
    /* Translators: "At 2×: 3 100 IOPS of the 4 000 scheduled (77.5 %), p99 … — the replay fell behind
     * the trace: 41.2 % of requests on time." */
    return g_strdup_printf (_("At %g×: %s IOPS of the %s scheduled (%.1f %%), %s — the replay fell "
                              "behind the trace: %.1f %% of requests on time."),
                            speed, achieved, recorded, share, latency, r->within_100us * 100);

  /* Translators: "At 1×: 1 998 IOPS of the 2 000 scheduled (99.9 %), p99 0.42 ms (recorded: 1.80 ms);
   * 99.8 % of requests on time." */
  return g_strdup_printf (_("At %g×: %s IOPS of the %s scheduled (%.1f %%), %s; %.1f %% of requests "
                            "on time."), speed, achieved, recorded, share, latency, r->within_100us * 100);
}
