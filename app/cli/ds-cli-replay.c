/* ds-cli-replay.c: `diskscope-cli replay`, a trace replayed open loop on a
 * target, with how faithful the replay was
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>

#include "ds-cli.h"
#include "ds-cli-replay-keep.h"
#include "ds-error.h"
#include "ds-trace.h"

static gint cancel_flag;

static void
on_signal (int signo)
{
  g_atomic_int_set (&cancel_flag, 1);
  (void) signo;
}

static void
print_json (const DsTraceReplayResult *r,
            double                     speed)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;

#define INT(name, v) (json_builder_set_member_name (b, name), json_builder_add_int_value (b, (gint64) (v)))
#define DBL(name, v) (json_builder_set_member_name (b, name), json_builder_add_double_value (b, (v)))
  json_builder_begin_object (b);
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
  INT ("p50_ns", r->p50_ns);
  INT ("p99_ns", r->p99_ns);
  INT ("p99_9_ns", r->p999_ns);
  INT ("read_p50_ns", r->read_p50_ns);
  INT ("read_p99_ns", r->read_p99_ns);
  INT ("write_p50_ns", r->write_p50_ns);
  INT ("write_p99_ns", r->write_p99_ns);
  INT ("target_bytes", r->target_bytes);
  INT ("trace_span_bytes", r->trace_span_bytes);
  json_builder_set_member_name (b, "cancelled");
  json_builder_add_boolean_value (b, r->cancelled);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  text = json_to_string (node, TRUE);
  printf ("%s\n", text);
#undef INT
#undef DBL
}

static void
print_text (const DsTraceReplayResult *r,
            double                     speed)
{
  printf (_("Replayed %" PRIu64 " I/Os (%" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64
            " flushes) at %.2fx in %.2f s\n"), r->ios, r->reads, r->writes, r->flushes, speed,
          r->duration_s);
  printf (_("  IOPS: %.1f achieved, %.1f recorded (x speed): %.1f %%\n"), r->achieved_iops,
          r->recorded_iops, r->recorded_iops > 0 ? 100 * r->achieved_iops / r->recorded_iops : 0);
  printf (_("  fidelity: %.2f %% of I/Os issued within 100 µs of schedule, %.2f %% within 1 ms; "
            "late p50 %.1f µs, p99 %.1f µs, max %.1f µs\n"), 100 * r->within_100us,
          100 * r->within_1ms, r->late_p50_ns / 1e3, r->late_p99_ns / 1e3, r->late_max_ns / 1e3);
  if (r->within_100us < 0.99)
    printf (_("  WARNING: the replay fell behind the trace (fewer than 99 %% of I/Os on time)\n"));
  if (r->waited > 0)
    printf (_("  %" PRIu64 " I/Os waited because all %u were in flight: the target could not "
              "keep up with the trace (its latency set the pace, not the replay)\n"),
            r->waited, r->max_in_flight);
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

int
ds_cli_replay (int    argc,
               char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("TRACE TARGET — replay a trace on a target, each I/O at its time"));
  g_autoptr (GError) error = NULL;
  g_autofree char *destroy = NULL;
  gboolean reads_only = FALSE, json = FALSE;
  double speed = 1.0;
  DsTraceReplaySpec spec = { 0 };
  DsTraceReplayResult res = { 0 };
  g_auto (DsCliReplayKeep) keep = { 0 };
  struct sigaction sa = { 0 }, old_int, old_term;
  gboolean ok;
  int status;
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, &destroy, N_("Confirm the writes by naming the target again"), N_("TARGET") },
    { "reads-only", 0, 0, G_OPTION_ARG_NONE, &reads_only, N_("Replay the reads only (no confirmation)"), NULL },
    { "speed", 0, 0, G_OPTION_ARG_DOUBLE, &speed, N_("Time scale: 2 replays twice as fast (default 1)"), N_("X") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("The result as JSON"), NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  ds_cli_replay_keep_add (&keep, context);
  g_option_context_set_description (context,
    _("Open loop: each I/O at its recorded time divided by --speed, whether or not\n"
    "the earlier ones completed.  O_DIRECT, incompressible data; offsets past\n"
    "the target's end wrap onto it (said).  A trace with writes OVERWRITES the\n"
    "target: the write gate as for every write test, --destroy-data must name it.\n"
    "Fidelity: the share of I/Os issued within 100 µs and 1 ms of their time."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 3)
    return ds_cli_complain (DS_CLI_USAGE, _("replay takes a trace and a target"));
  if (!(speed > 0.001 && speed <= 1000))
    return ds_cli_complain (DS_CLI_USAGE, _("--speed must be between 0.001 and 1000"));
  spec.trace = argv[1];
  spec.target = argv[2];
  spec.confirm = destroy;
  spec.reads_only = reads_only;
  spec.speed = speed;
  spec.cancel = &cancel_flag;
  if (!ds_cli_replay_keep_check (&keep, &spec, &status))
    return status;
  g_atomic_int_set (&cancel_flag, 0);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);
  ok = ds_trace_replay (&spec, &res, &error);
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  if (!ok)
    return ds_cli_fail (error);
  if (json)
    print_json (&res, speed);
  else
    print_text (&res, speed);
  return ds_cli_replay_keep (&keep, &spec, &res,
                             ds_cli_flush_stdout (res.cancelled ? DS_CLI_INTERRUPTED : DS_CLI_OK));
}
