/* ds-cli-replay.c: `diskscope-cli replay`, a trace replayed open or
 * closed loop on a target, with how faithful the replay was; a list of
 * speeds and the headroom search are ds-cli-headroom.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>

#include <string.h>

#include "ds-cli.h"
#include "ds-cli-replay.h"
#include "ds-cli-replay-keep.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-trace.h"
#include "ds-units.h"

static gint cancel_flag;

static void
on_signal (int signo)
{
  g_atomic_int_set (&cancel_flag, 1);
  (void) signo;
}

void
ds_cli_replay_members (JsonBuilder               *b,
                       const DsTraceReplayResult *r,
                       double                     speed,
                       const DsTraceLatency      *trace)
{
#define INT(name, v) (json_builder_set_member_name (b, name), json_builder_add_int_value (b, (gint64) (v)))
#define DBL(name, v) (json_builder_set_member_name (b, name), json_builder_add_double_value (b, (v)))
  json_builder_set_member_name (b, "loop");
  json_builder_add_string_value (b, r->loop == DS_TRACE_LOOP_CLOSED ? "closed" : "open");
  DBL ("speed", speed);
  INT ("ios", r->ios);
  INT ("reads", r->reads);
  INT ("writes", r->writes);
  INT ("flushes", r->flushes);
  INT ("skipped", r->skipped);
  INT ("wrapped", r->wrapped);
  INT ("errors", r->errors);
  INT ("waited_for_slot", r->waited);
  INT ("max_in_flight", r->max_in_flight);
  INT ("bytes", r->bytes);
  DBL ("duration_s", r->duration_s);
  DBL ("recorded_iops", r->recorded_iops);
  DBL ("achieved_iops", r->achieved_iops);
  DBL ("within_100us", r->within_100us);
  DBL ("within_1ms", r->within_1ms);
  INT ("late_p50_ns", r->late_p50_ns);
  INT ("late_p99_ns", r->late_p99_ns);
  INT ("late_max_ns", r->late_max_ns);
  DBL ("mean_depth", r->mean_depth);
  DBL ("recorded_mean_depth", r->recorded_mean_depth);
  INT ("max_depth", r->max_depth);
  INT ("p50_ns", r->p50_ns);
  INT ("p99_ns", r->p99_ns);
  INT ("p99_9_ns", r->p999_ns);
  INT ("read_p50_ns", r->read_p50_ns);
  INT ("read_p99_ns", r->read_p99_ns);
  INT ("read_p99_9_ns", r->read_p999_ns);
  INT ("write_p50_ns", r->write_p50_ns);
  INT ("write_p99_ns", r->write_p99_ns);
  INT ("write_p99_9_ns", r->write_p999_ns);
  INT ("target_bytes", r->target_bytes);
  INT ("trace_span_bytes", r->trace_span_bytes);
  json_builder_set_member_name (b, "cancelled");
  json_builder_add_boolean_value (b, r->cancelled);
  /* The latency CDF, the replay's beside the trace's own (production's). */
  json_builder_set_member_name (b, "percentiles");
  json_builder_begin_array (b);
  for (unsigned i = 0; i < DS_TRACE_N_CDF; i++)
    {
      json_builder_begin_object (b);
      DBL ("percent", ds_trace_cdf_points[i]);
      INT ("replay_ns", r->cdf_ns[i]);
      if (trace != NULL && trace->has_latency)
        INT ("trace_ns", trace->cdf_ns[i]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
#undef INT
#undef DBL
}

char *
ds_cli_replay_ns (uint64_t ns)
{
  if (ns >= DS_NS_PER_MSEC)
    return g_strdup_printf (_("%.3g ms"), (double) ns / 1e6);
  return g_strdup_printf (_("%.3g µs"), (double) ns / 1e3);
}

static void
print_json (const DsTraceReplayResult *r,
            double                     speed,
            const DsTraceLatency      *trace)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  ds_cli_replay_members (b, r, speed, trace);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  text = json_to_string (node, TRUE);
  printf ("%s\n", text);
}

static void
print_fidelity (const DsTraceReplayResult *r)
{
  if (r->loop == DS_TRACE_LOOP_CLOSED)
    {
      printf (_("  depth: %.2f in flight on average (at most %u), the trace's %.2f (%.1f %%)\n"),
              r->mean_depth, r->max_depth, r->recorded_mean_depth,
              r->recorded_mean_depth > 0 ? 100 * r->mean_depth / r->recorded_mean_depth : 0);
      return;
    }
  printf (_("  fidelity: %.2f %% of I/Os issued within 100 µs of schedule, %.2f %% within 1 ms; "
            "late p50 %.1f µs, p99 %.1f µs, max %.1f µs\n"), 100 * r->within_100us,
          100 * r->within_1ms, r->late_p50_ns / 1e3, r->late_p99_ns / 1e3, r->late_max_ns / 1e3);
  if (r->within_100us < 0.99)
    printf (_("  WARNING: the replay fell behind the trace (fewer than 99 %% of I/Os on time)\n"));
  if (r->waited > 0)
    printf (_("  %" PRIu64 " I/Os waited because all %u were in flight: the target could not "
              "keep up with the trace (its latency set the pace, not the replay)\n"),
            r->waited, r->max_in_flight);
}

static void
print_text (const DsTraceReplayResult *r,
            double                     speed)
{
  if (r->loop == DS_TRACE_LOOP_CLOSED)
    printf (_("Replayed %" PRIu64 " I/Os (%" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64
              " flushes) closed loop in %.2f s\n"), r->ios, r->reads, r->writes, r->flushes,
            r->duration_s);
  else
    printf (_("Replayed %" PRIu64 " I/Os (%" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64
              " flushes) at %.2fx in %.2f s\n"), r->ios, r->reads, r->writes, r->flushes, speed,
            r->duration_s);
  if (r->loop == DS_TRACE_LOOP_CLOSED)
    printf (_("  IOPS: %.1f achieved, %.1f recorded\n"), r->achieved_iops, r->recorded_iops);
  else
    printf (_("  IOPS: %.1f achieved, %.1f recorded (x speed): %.1f %%\n"), r->achieved_iops,
            r->recorded_iops, r->recorded_iops > 0 ? 100 * r->achieved_iops / r->recorded_iops : 0);
  print_fidelity (r);
  printf (_("  latency: p50 %.1f µs, p99 %.1f µs, p99.9 %.1f µs (reads p50 %.1f, p99 %.1f; "
            "writes p50 %.1f, p99 %.1f)\n"), r->p50_ns / 1e3, r->p99_ns / 1e3, r->p999_ns / 1e3,
          r->read_p50_ns / 1e3, r->read_p99_ns / 1e3, r->write_p50_ns / 1e3, r->write_p99_ns / 1e3);
  if (r->wrapped > 0)
    printf (_("  %" PRIu64 " I/Os past the target's end (%.1f MB; the trace reaches %.1f MB) "
              "wrapped onto it\n"), r->wrapped, r->target_bytes / 1e6, r->trace_span_bytes / 1e6);
  if (r->skipped > 0)
    printf (_("  %" PRIu64 " requests not replayed (discards, other operations, or writes "
              "with --reads-only)\n"), r->skipped);
  if (r->errors > 0)
    printf (_("  %" PRIu64 " I/O errors\n"), r->errors);
}

/* --speed: one factor, a list "1,2,4,8", or "search". */
static gboolean
parse_speed (const char  *text,
             GArray      *factors,
             gboolean    *ret_search,
             GError     **error)
{
  g_auto (GStrv) parts = NULL;

  *ret_search = g_strcmp0 (text, "search") == 0;
  if (text == NULL || *ret_search)
    return TRUE;
  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *end = NULL;
      double f;

      g_strstrip (parts[i]);
      if (parts[i][0] == 0)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("--speed %s: an empty factor (give factors like 1,2,4,8, or search)"), text);
          return FALSE;
        }
      f = g_ascii_strtod (parts[i], &end);
      if (end == parts[i] || *end != 0 || !(f >= 0.001 && f <= 1000))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("--speed %s: “%s” is not a factor between 0.001 and 1000"), text, parts[i]);
          return FALSE;
        }
      g_array_append_val (factors, f);
    }
  return TRUE;
}

/* The checks that need no trace: which options go with which loop. */
static gboolean
check_options (const char  *loop,
               const char  *speed_text,
               const char  *p99_text,
               const char  *step_text,
               int          depth,
               DsTraceReplaySpec *spec,
               uint64_t    *ret_p99_ns,
               uint64_t    *ret_step_ns,
               GError     **error)
{
  if (loop == NULL || strcmp (loop, "open") == 0)
    spec->loop = DS_TRACE_LOOP_OPEN;
  else if (strcmp (loop, "closed") == 0)
    spec->loop = DS_TRACE_LOOP_CLOSED;
  else
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("--loop must be open or closed, not “%s”"), loop);
      return FALSE;
    }
  if (depth < 0 || depth > 4096)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("--depth must be between 1 and 4096"));
      return FALSE;
    }
  if (depth > 0 && spec->loop != DS_TRACE_LOOP_CLOSED)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("--depth is for the closed loop (--loop closed)"));
      return FALSE;
    }
  if (speed_text != NULL && spec->loop == DS_TRACE_LOOP_CLOSED)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--speed is for the open loop: the closed loop keeps the trace's depth, not its times"));
      return FALSE;
    }
  spec->depth = (unsigned) depth;
  *ret_p99_ns = *ret_step_ns = 0;
  if (p99_text != NULL &&
      (strchr (p99_text, '-') != NULL || !ds_parse_duration (p99_text, ret_p99_ns, NULL) || *ret_p99_ns == 0))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--p99 %s: not a latency (a positive duration: 500us, 5ms)"), p99_text);
      return FALSE;
    }
  if (step_text != NULL &&
      (strchr (step_text, '-') != NULL || !ds_parse_duration (step_text, ret_step_ns, NULL) ||
       *ret_step_ns < DS_NS_PER_MSEC * 100))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("--step-time %s: not a duration of 100ms or more"), step_text);
      return FALSE;
    }
  return TRUE;
}

int
ds_cli_replay (int    argc,
               char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("TRACE TARGET — replay a trace on a target, open or closed loop"));
  g_autoptr (GError) error = NULL;
  g_autofree char *destroy = NULL, *speed_text = NULL, *loop = NULL, *p99_text = NULL, *step_text = NULL;
  g_autoptr (GArray) factors = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean reads_only = FALSE, json = FALSE, search = FALSE;
  int depth = 0;
  uint64_t p99_ns = 0, step_ns = 0;
  double speed;
  DsTraceReplaySpec spec = { 0 };
  DsTraceReplayResult res = { 0 };
  DsTraceLatency trace = { 0 };
  g_auto (DsCliReplayKeep) keep = { 0 };
  struct sigaction sa = { 0 }, old_int, old_term;
  gboolean ok;
  int status;
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &destroy, N_("Confirm the writes by naming the target again"), N_("TARGET") },
    { "reads-only", 0, 0, G_OPTION_ARG_NONE, &reads_only, N_("Replay the reads only (no confirmation)"), NULL },
    { "loop", 0, 0, G_OPTION_ARG_STRING, &loop, N_("open (each I/O at its time, the default) or closed (the recorded depth kept, in order)"), N_("open|closed") },
    { "depth", 0, 0, G_OPTION_ARG_INT, &depth, N_("Closed loop: keep N in flight instead of the recorded depth (a trace without completion times needs it)"), N_("N") },
    { "speed", 0, 0, G_OPTION_ARG_STRING, &speed_text, N_("Time scale: 2 replays twice as fast (default 1); a list 1,2,4,8 replays once per factor; search finds the headroom"), N_("X|X,Y,...|search") },
    { "p99", 0, 0, G_OPTION_ARG_STRING, &p99_text, N_("The p99 latency a factor must hold (default: the trace's own p99)"), N_("TIME") },
    { "step-time", 0, 0, G_OPTION_ARG_STRING, &step_text, N_("Each step of a list or search lasts at most TIME: the trace's first TIME x factor (search: default 10s)"), N_("TIME") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("The result as JSON"), NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_replay_keep_add (&keep, context);
  g_option_context_set_description (context,
    /* xgettext:no-c-format */
    _("Open loop: each I/O at its recorded time divided by --speed, whether or not\n"
    "the earlier ones completed.  Fidelity: the share of I/Os issued within\n"
    "100 µs and 1 ms of their time.  Closed loop (--loop closed): the trace's\n"
    "order, each I/O issued once fewer than the depth the trace had at it are\n"
    "in flight; fidelity: the mean depth against the trace's.\n"
    "Headroom: --speed 1,2,4,8 replays once per factor (a table); --speed search\n"
    "doubles the factor until p99 passes --p99 (default: the trace's own p99)\n"
    "or the target falls behind (under 95 % of the IOPS asked, or an I/O\n"
    "waiting for a slot), then bisects: the highest factor that held.\n"
    "O_DIRECT, incompressible data; offsets past the target's end wrap onto it\n"
    "(said).  A trace with writes OVERWRITES the target: the write gate as for\n"
    "every write test, --destroy-data must name it."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 3)
    return ds_cli_complain (DS_CLI_USAGE, _("replay takes a trace and a target"));
  if (!check_options (loop, speed_text, p99_text, step_text, depth, &spec, &p99_ns, &step_ns, &error) ||
      !parse_speed (speed_text, factors, &search, &error))
    return ds_cli_complain (DS_CLI_USAGE, "%s", error->message);
  spec.trace = argv[1];
  spec.target = argv[2];
  spec.confirm = destroy;
  spec.reads_only = reads_only;
  spec.cancel = &cancel_flag;
  if (!ds_cli_replay_keep_check (&keep, &spec, &status))
    return status;
  g_atomic_int_set (&cancel_flag, 0);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);
  if (search || factors->len > 1)
    {
      status = ds_cli_headroom (&spec, (const double *) (void *) factors->data, factors->len, search,
                                p99_ns, search && step_ns == 0 ? 10 * DS_NS_PER_SEC : step_ns, json);
      sigaction (SIGINT, &old_int, NULL);
      sigaction (SIGTERM, &old_term, NULL);
      return status;
    }
  speed = factors->len == 1 ? g_array_index (factors, double, 0) : 1.0;
  spec.speed = speed;
  spec.window_ns = step_ns ? (uint64_t) ((double) step_ns * speed) : 0;
  ok = ds_trace_replay (&spec, &res, &error) &&
       ds_trace_recorded_latency (spec.trace, spec.window_ns, reads_only, &trace, &error);
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  if (!ok)
    return ds_cli_fail (error);
  if (json)
    print_json (&res, speed, &trace);
  else
    print_text (&res, speed);
  return ds_cli_replay_keep (&keep, &spec, &res,
                             ds_cli_flush_stdout (res.cancelled ? DS_CLI_INTERRUPTED : DS_CLI_OK));
}
