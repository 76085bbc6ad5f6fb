/* ds-cli-monitor.c: `diskscope-cli monitor`, the Disk Monitor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "ds-cli.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-monitor.h"
#include "ds-units.h"

static gint cancel_flag;

static void
on_signal (int signo)
{
  g_atomic_int_set (&cancel_flag, 1);
  signal (signo, SIG_DFL);
}

typedef struct {
  gboolean json_lines;
  guint    top;
  DsUnits  units;
} Printer;

static void
print_text (const DsMonitorSample *sample,
            const Printer         *p)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%H:%M:%S");
  const char *unit = p->units == DS_UNITS_MIB ? "MiB/s" : "MB/s";
  double div = p->units == DS_UNITS_MIB ? 1048576.0 : 1e6;

  printf ("%s  %-10s %10s %10s %8s %8s %7s %6s %5s %8s %8s\n", stamp, "device",
          "read", "write", "r/s", "w/s", "util%", "queue", "busy", "r_await", "w_await");
  for (guint i = 0; i < sample->devices->len; i++)
    {
      const DsMonitorDevice *d = &g_array_index (sample->devices, DsMonitorDevice, i);

      printf ("          %-10s %10.1f %10.1f %8.0f %8.0f %7.1f %6.2f %5u %8.2f %8.2f\n",
              d->name, d->read_bytes_per_s / div, d->write_bytes_per_s / div,
              d->read_iops, d->write_iops, d->util_percent, d->queue_depth, d->in_flight,
              d->read_await_ms, d->write_await_ms);
    }
  if (sample->processes->len > 0)
    printf ("          %-7s %-16s %10s %10s  %s\n", "pid", "process", "read", "write", "devices open");
  for (guint i = 0; i < sample->processes->len && i < p->top; i++)
    {
      const DsMonitorProcess *q = &g_array_index (sample->processes, DsMonitorProcess, i);

      printf ("          %-7d %-16s %10.1f %10.1f  %s\n", q->pid, q->comm,
              q->read_bytes_per_s / div, q->write_bytes_per_s / div,
              q->devices[0] ? q->devices : "-");
    }
  if (sample->unreadable_processes > 0 && geteuid () != 0)
    printf (_("          (%u processes of other users not shown: run as root to see them)\n"),
            sample->unreadable_processes);
  else if (sample->unreadable_processes > 0)
    printf (_("          (%u processes refused even root their I/O counters: another "
            "container's, or a security module's)\n"), sample->unreadable_processes);
  printf (_("          rates in %s; process I/O is what reached the storage layer\n\n"), unit);
}

static void
on_sample (const DsMonitorSample *sample,
           gpointer               user_data)
{
  const Printer *p = user_data;

  if (p->json_lines)
    {
      g_autoptr (JsonNode) node = ds_monitor_sample_to_json (sample);
      g_autofree char *line = json_to_string (node, FALSE);

      printf ("%s\n", line);
    }
  else
    {
      print_text (sample, p);
    }
  fflush (stdout);
}

int
ds_cli_monitor (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("[DEVICE] — what the disks, and which processes, are doing now"));
  g_autoptr (GError) error = NULL;
  g_autoptr (DsMonitor) monitor = NULL;
  g_autofree char *interval = NULL;
  g_autofree char *units_text = NULL;
  gboolean json_lines = FALSE;
  int count = 0, top = 10;
  uint64_t interval_ns = DS_NS_PER_SEC;
  Printer printer = { 0 };
  int status;
  GOptionEntry entries[] = {
    { "interval", 'i', 0, G_OPTION_ARG_STRING, &interval, N_("Time between samples (default 1s)"), N_("TIME") },
    { "count", 'c', 0, G_OPTION_ARG_INT, &count, N_("Stop after N samples (default: until Ctrl-C)"), "N" },
    { "json-lines", 0, 0, G_OPTION_ARG_NONE, &json_lines, N_("One JSON object per sample and line"), NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_("Processes shown per sample (default 10)"), "N" },
    { "units", 0, 0, G_OPTION_ARG_STRING, &units_text, N_("Rates in MB/s (10^6 bytes, default) or MiB/s (2^20 bytes: HD Tune's \"MB/s\")"), N_("MB|MiB") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    _("Devices from /proc/diskstats (throughput, IOPS, utilisation, average queue,\n"
    "in flight, average wait); processes from /proc/PID/io with the monitored\n"
    "devices they have open.  Other users' processes are visible to root only."));
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc > 2)
    return ds_cli_complain (DS_CLI_USAGE, _("monitor takes at most one device"));
  if (count < 0 || top < 0)
    return ds_cli_complain (DS_CLI_USAGE, _("--count and --top cannot be negative"));
  if (interval != NULL && (!ds_parse_duration (interval, &interval_ns, &error) ||
                           interval_ns < 10 * DS_NS_PER_MSEC))
    return error ? ds_cli_fail (error) : ds_cli_complain (DS_CLI_USAGE, _("--interval must be at least 10ms"));
  if (!ds_units_from_string (units_text, &printer.units, &error))
    return ds_cli_fail (error);

  monitor = ds_monitor_new (argc == 2 ? argv[1] : NULL, &error);
  if (monitor == NULL)
    return ds_cli_fail (error);

  printer.json_lines = json_lines;
  printer.top = (guint) top;
  g_atomic_int_set (&cancel_flag, 0);
  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  if (ds_monitor_run (monitor, interval_ns, (guint) count, &cancel_flag, on_sample, &printer, &error) < 0)
    status = ds_cli_fail (error);
  else
    status = DS_CLI_OK;
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);

  return status;
}
