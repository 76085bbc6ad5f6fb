/* ds-cli-headroom.c: `diskscope-cli replay --speed 1,2,4,8` (one open-loop
 * replay per factor, a table) and `--speed search` (the highest factor
 * whose p99 holds a target: the headroom), in text and JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "ds-cli.h"
#include "ds-cli-replay.h"
#include "ds-error.h"
#include "ds-trace.h"

typedef struct {
  gboolean              json;
  gboolean              header_done;
  uint64_t              p99_ns;   /* G_MAXUINT64: none (only the pace decides) */
  const DsTraceLatency *trace;
} Out;

static void
print_row (const DsTraceHeadroomStep *st,
           gpointer                   user_data)
{
  Out *out = user_data;
  const DsTraceReplayResult *r = &st->result;
  g_autofree char *reads = NULL, *writes = NULL;

  if (out->json)
    return;
  if (!out->header_done)
    {
      /* TRANSLATORS: the headroom table's columns; keep their widths. */
      printf (_("factor  IOPS asked  achieved  on time  p50 µs     p99 µs     p99.9 µs   "
                "reads p99  writes p99  held\n"));
      out->header_done = TRUE;
    }
  reads = r->reads ? g_strdup_printf ("%.1f", r->read_p99_ns / 1e3) : g_strdup ("-");
  writes = r->writes ? g_strdup_printf ("%.1f", r->write_p99_ns / 1e3) : g_strdup ("-");
  printf ("%6.3g  %10.1f  %8.1f  %6.2f%%  %-9.1f  %-9.1f  %-9.1f  %-9s  %-10s  %s\n",
          st->factor, r->recorded_iops, r->achieved_iops, 100 * r->within_100us, r->p50_ns / 1e3,
          r->p99_ns / 1e3, r->p999_ns / 1e3, reads, writes, st->held ? _("yes") : _("no"));
  fflush (stdout);
}

static void
add_latency (JsonBuilder          *b,
             const DsTraceLatency *t)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "has_latency");
  json_builder_add_boolean_value (b, t->has_latency);
  json_builder_set_member_name (b, "iops");
  json_builder_add_double_value (b, t->iops);
  json_builder_set_member_name (b, "p50_ns");
  json_builder_add_int_value (b, (gint64) t->p50_ns);
  json_builder_set_member_name (b, "p99_ns");
  json_builder_add_int_value (b, (gint64) t->p99_ns);
  json_builder_set_member_name (b, "p99_9_ns");
  json_builder_add_int_value (b, (gint64) t->p999_ns);
  json_builder_set_member_name (b, "read_p99_ns");
  json_builder_add_int_value (b, (gint64) t->read_p99_ns);
  json_builder_set_member_name (b, "write_p99_ns");
  json_builder_add_int_value (b, (gint64) t->write_p99_ns);
  json_builder_end_object (b);
}

/* The IOPS the step at @factor asked for (its window of the trace's rate x
 * the factor); 0 if none ran at it. */
static double
asked_iops (const GArray *steps,
            double        factor)
{
  for (guint i = 0; i < steps->len; i++)
    if (g_array_index (steps, DsTraceHeadroomStep, i).factor == factor)
      return g_array_index (steps, DsTraceHeadroomStep, i).result.recorded_iops;
  return 0;
}

/* The search's answer, one sentence. */
static char *
sentence (const DsTraceHeadroom *h,
          uint64_t               p99_ns,
          double                 iops)
{
  g_autofree char *p99 = ds_cli_replay_ns (p99_ns);

  if (h->factor == 0)
    return g_strdup_printf (_("This target does not hold the captured workload even at %.3gx "
                              "today's rate with p99 under %s."), h->failed_factor, p99);
  if (h->failed_factor == 0)
    return g_strdup_printf (_("This target holds the captured workload up to at least %.3gx "
                              "today's rate (%.0f IOPS; the most tried) with p99 under %s."),
                            h->factor, iops, p99);
  return g_strdup_printf (_("This target holds the captured workload up to %.3gx today's rate "
                            "(%.0f IOPS) with p99 under %s."), h->factor, iops, p99);
}

static void
print_json (const GArray          *steps,
            const Out             *out,
            const DsTraceHeadroom *h,
            const char            *answer)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "loop");
  json_builder_add_string_value (b, "open");
  if (out->p99_ns != G_MAXUINT64)
    {
      json_builder_set_member_name (b, "target_p99_ns");
      json_builder_add_int_value (b, (gint64) out->p99_ns);
    }
  json_builder_set_member_name (b, "trace");
  add_latency (b, out->trace);
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < steps->len; i++)
    {
      const DsTraceHeadroomStep *st = &g_array_index (steps, DsTraceHeadroomStep, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "factor");
      json_builder_add_double_value (b, st->factor);
      json_builder_set_member_name (b, "held");
      json_builder_add_boolean_value (b, st->held);
      ds_cli_replay_members (b, &st->result, st->factor, out->trace);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  if (h != NULL)
    {
      json_builder_set_member_name (b, "search");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "factor");
      json_builder_add_double_value (b, h->factor);
      json_builder_set_member_name (b, "failed_factor");
      json_builder_add_double_value (b, h->failed_factor);
      json_builder_set_member_name (b, "iops");
      json_builder_add_double_value (b, asked_iops (steps, h->factor));
      json_builder_set_member_name (b, "answer");
      json_builder_add_string_value (b, answer);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  text = json_to_string (node, TRUE);
  printf ("%s\n", text);
}

/* Without --p99: the target is the trace's own p99 (said before the table). */
static void
print_own_p99 (uint64_t p99_ns)
{
  g_autofree char *p99 = ds_cli_replay_ns (p99_ns);
  /* Not printf (_(...)): GCC 12's -O2 with the sanitizers takes its
   * format for a null one (-Wformat-overflow) here. */
  g_autofree char *line = g_strdup_printf (_("Target p99: %s, the trace's own\n"), p99);

  fputs (line, stdout);
}

static gboolean
run_list (const DsTraceReplaySpec *spec,
          const double            *factors,
          guint                    n,
          uint64_t                 step_ns,
          Out                     *out,
          GArray                  *steps,
          GError                 **error)
{
  for (guint i = 0; i < n && !(spec->cancel && g_atomic_int_get (spec->cancel)); i++)
    {
      DsTraceHeadroomStep st = { .factor = factors[i] };
      DsTraceReplaySpec one = *spec;

      one.speed = factors[i];
      one.window_ns = step_ns ? (uint64_t) ((double) step_ns * factors[i]) : 0;
      if (!ds_trace_replay (&one, &st.result, error))
        return FALSE;
      st.held = ds_trace_replay_held (&st.result, out->p99_ns);
      g_array_append_val (steps, st);
      print_row (&st, out);
    }
  return TRUE;
}

int
ds_cli_headroom (const DsTraceReplaySpec *spec,
                 const double            *factors,
                 guint                    n_factors,
                 gboolean                 search,
                 uint64_t                 p99_ns,
                 uint64_t                 step_ns,
                 gboolean                 json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) steps = g_array_new (FALSE, FALSE, sizeof (DsTraceHeadroomStep));
  g_autofree char *answer = NULL;
  DsTraceLatency trace;
  DsTraceHeadroom h = { 0 };
  Out out = { .json = json };
  gboolean ok, cancelled;

  if (!ds_trace_recorded_latency (spec->trace, 0, spec->reads_only, &trace, &error))
    return ds_cli_fail (error);
  out.trace = &trace;
  out.p99_ns = p99_ns ? p99_ns : trace.has_latency ? trace.p99_ns : G_MAXUINT64;
  if (search && out.p99_ns == G_MAXUINT64)
    return ds_cli_complain (DS_CLI_USAGE, _("%s has no completion times, so no p99 of its own: "
                                            "give the search a target (--p99 5ms)"), spec->trace);
  if (!json && p99_ns == 0 && out.p99_ns != G_MAXUINT64)
    print_own_p99 (out.p99_ns);
  if (search)
    {
      DsTraceHeadroomSpec hs = { .replay = *spec, .p99_ns = out.p99_ns, .step_ns = step_ns,
                                 .step_func = print_row, .step_data = &out };

      ok = ds_trace_headroom_search (&hs, &h, &error);
      if (ok)
        g_array_append_vals (steps, h.steps->data, h.steps->len);
      cancelled = h.cancelled;
    }
  else
    {
      ok = run_list (spec, factors, n_factors, step_ns, &out, steps, &error);
      cancelled = steps->len > 0 &&
                  g_array_index (steps, DsTraceHeadroomStep, steps->len - 1).result.cancelled;
    }
  if (!ok)
    {
      ds_trace_headroom_clear (&h);
      return ds_cli_fail (error);
    }
  if (search && !cancelled)
    answer = sentence (&h, out.p99_ns, asked_iops (steps, h.factor));
  if (json)
    print_json (steps, &out, search ? &h : NULL, answer);
  else if (answer != NULL)
    printf ("%s\n", answer);
  ds_trace_headroom_clear (&h);
  return ds_cli_flush_stdout (cancelled ? DS_CLI_INTERRUPTED : DS_CLI_OK);
}
