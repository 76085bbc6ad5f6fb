/* ds-cli-capture.c: `diskscope-cli capture`, a device's requests from the
 * kernel's block tracepoints into a trace file (docs/trace-format.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "ds-cli.h"
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

static void
on_progress (const DsTraceProgress *p,
             gpointer               user_data)
{
  gboolean tty = GPOINTER_TO_INT (user_data);

  fprintf (stderr, _("%s%6.1f s  %8.0f IOPS  %8.2f MB/s  %" PRIu64 " events, %"
                     PRIu64 " requests, %" PRIu64 " lost%s"),
           tty ? "\r" : "", (double) p->elapsed_ns / 1e9, p->iops, p->bytes_per_s / 1e6,
           p->events, p->records, p->lost, tty ? "  " : "\n");
  fflush (stderr);
}

static void
print_result (const DsTraceCaptureResult *res,
              const char                 *output)
{
  const DsTraceHeader *h = &res->header;

  printf (_("Captured %" PRIu64 " requests of %s in %.1f s into %s\n"),
          h->record_count, h->device, (double) h->duration_ns / 1e9, output);
  printf (_("  events read: %" PRIu64 " (binary ring buffer pages, ns stamps)\n"), res->events);
  printf (_("  lost events: %" PRIu64 "%s\n"), h->lost_events,
          h->lost_events > 0 ? _(" (the trace is incomplete)") : _(" (the kernel's overrun counters)"));
  if (res->unmatched > 0 || res->incomplete > 0)
    printf (_("  completions of requests issued before the start: %" PRIu64
              "; requests still in flight at the end: %" PRIu64 "\n"),
            res->unmatched, res->incomplete);
  printf (_("  tracefs instance %s removed\n"), res->instance);
  printf (_("  the file holds no data: offsets, sizes, times, operations and process names\n"));
}

int
ds_cli_capture (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("DEVICE -o FILE — record every request on a device"));
  g_autoptr (GError) error = NULL;
  g_autofree char *duration = NULL, *output = NULL;
  gboolean accept_lost = FALSE;
  int buffer_kib = 8192, status;
  DsTraceCaptureSpec spec = { 0 };
  DsTraceCaptureResult res = { 0 };
  struct sigaction sa = { 0 }, old_int, old_term, old_hup;
  gboolean ok;
  GOptionEntry entries[] = {
    { "duration", 'd', 0, G_OPTION_ARG_STRING, &duration, N_("How long (default: until Ctrl-C)"), N_("TIME") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The trace file (required)"), N_("FILE") },
    { "accept-lost", 0, 0, G_OPTION_ARG_NONE, &accept_lost, N_("Keep a capture whose trace buffer dropped events (it fails otherwise)"), NULL },
    { "buffer", 0, 0, G_OPTION_ARG_INT, &buffer_kib, N_("The kernel's trace buffer per CPU in KiB (default 8192)"), N_("KIB") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("Records issue and completion (ns), offset, size, operation (read, write,\n"
    "flush, discard; FUA, sync) and process of every request on DEVICE, from the\n"
    "kernel's block tracepoints in a tracefs instance of its own (removed at the\n"
    "end, on Ctrl-C, SIGTERM and errors).  Read-only: it never opens the device.\n"
    "The file holds no data: only offsets, sizes, times and process names.\n"
    "Events the kernel's buffer dropped are counted and fail the capture unless\n"
    "--accept-lost.  Needs root.  `diskscope-cli profile FILE` reads it."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2 || output == NULL)
    return ds_cli_complain (DS_CLI_USAGE, _("capture takes one device and -o FILE"));
  if (duration != NULL && !ds_parse_duration (duration, &spec.duration_ns, &error))
    return ds_cli_fail (error);
  if (buffer_kib < 64 || buffer_kib > 1048576)
    return ds_cli_complain (DS_CLI_USAGE, _("--buffer must be between 64 and 1048576 KiB"));

  spec.device = argv[1];
  spec.output = output;
  spec.buffer_kib = (uint32_t) buffer_kib;
  spec.accept_lost = accept_lost;
  spec.cancel = &cancel_flag;
  spec.progress = on_progress;
  spec.progress_data = GINT_TO_POINTER (isatty (2));
  g_atomic_int_set (&cancel_flag, 0);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);
  sigaction (SIGHUP, &sa, &old_hup);
  ok = ds_trace_capture (&spec, &res, &error);
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  sigaction (SIGHUP, &old_hup, NULL);
  if (isatty (2))
    fprintf (stderr, "\n");
  if (!ok && res.header.record_count == 0 && res.instance[0] == 0)
    return ds_cli_fail (error);
  if (res.instance[0] != 0)
    print_result (&res, output);
  if (!ok)
    return ds_cli_fail (error);
  return ds_cli_flush_stdout (g_atomic_int_get (&cancel_flag) ? DS_CLI_INTERRUPTED : DS_CLI_OK);
}
