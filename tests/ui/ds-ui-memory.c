/* ds-ui-memory.c: the figures behind tests/bench/ui-memory
 *
 *   ds-ui-memory launch DEVICE
 *     Starts the app as `diskscope --device DEVICE --page info` does (the
 *     same application object, its options and its window), waits for
 *     the window's first frame, lets the page settle for 1.5 s and prints
 *     the time from exec to the first frame and the memory then.
 *   ds-ui-memory benchmark DEVICE
 *     The same with `--page benchmark --start`: the memory 1 s after the
 *     Benchmark's run finished.
 *   ds-ui-memory all-pages DEVICE
 *     Launches on the Info page, then shows every page once (each drawn),
 *     prints the memory, then runs the Benchmark and prints it again.
 *
 * The exec time comes from $DS_UI_MEMORY_T0 (nanoseconds of the real-time
 * clock, `date +%s%N` just before exec); memory is VmRSS and VmHWM (the
 * peak, what `/usr/bin/time -f %M` reports) of /proc/self/status, in KiB.
 * Prints "key=value" lines; exit 0 unless something failed to run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds-application.h"
#include "ds-pages.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"

typedef struct {
  const char    *mode;
  DsApplication *app;
  DsWindow      *window;
  gboolean       framed;      /* the first frame was painted */
  gboolean       finished;    /* the Benchmark's run is over */
  gboolean       success;
  int            status;
} Run;

/* VmRSS and VmHWM of this process, KiB. */
static void
print_memory (const char *what)
{
  g_autofree char *status = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 rss = 0, hwm = 0;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    lines = g_strsplit (status, "\n", -1);
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      sscanf (lines[i], "VmRSS: %" G_GUINT64_FORMAT, &rss);
      sscanf (lines[i], "VmHWM: %" G_GUINT64_FORMAT, &hwm);
    }
  printf ("%s_rss_kb=%" G_GUINT64_FORMAT "\n%s_hwm_kb=%" G_GUINT64_FORMAT "\n", what, rss, what, hwm);
  fflush (stdout);
}

static void
after_paint_cb (GdkFrameClock *clock,
                Run           *run)
{
  const char *t0 = g_getenv ("DS_UI_MEMORY_T0");

  if (run->framed)
    return;
  run->framed = TRUE;
  if (t0 != NULL)
    printf ("first_frame_ms=%.1f\n", (g_get_real_time () * 1e3 - g_ascii_strtod (t0, NULL)) / 1e6);
  fflush (stdout);
}

static void
realize_cb (GtkWidget *window,
            Run       *run)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint_cb), run);
}

static void
run_finished_cb (DsWindow *window,
                 gboolean  success,
                 Run      *run)
{
  run->finished = TRUE;
  run->success = success;
}

static gboolean
benchmark (Run *run)
{
  g_autoptr(GError) error = NULL;

  run->finished = FALSE;
  if (!ds_window_set_page (run->window, "benchmark") || !ds_window_start (run->window, &error))
    {
      fprintf (stderr, "ds-ui-memory: cannot start the Benchmark: %s\n", error ? error->message : "no page");
      return FALSE;
    }
  if (!ds_ui_test_spin_until (&run->finished, 120000) || !run->success)
    {
      fprintf (stderr, "ds-ui-memory: the Benchmark did not finish well\n");
      return FALSE;
    }
  ds_ui_test_spin (1000);
  return TRUE;
}

/* Everything happens once the window is up, from the main loop's own
 * iterations: the application's run does not return until we quit. */
static gboolean
measure_cb (gpointer data)
{
  Run *run = data;
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);

  if (!ds_ui_test_spin_until (&run->framed, 20000))
    {
      fprintf (stderr, "ds-ui-memory: no frame in 20 s\n");
      run->status = 1;
      goto out;
    }

  if (strcmp (run->mode, "launch") == 0)
    {
      ds_ui_test_spin (1500);
      print_memory ("launch");
    }
  else if (strcmp (run->mode, "benchmark") == 0)
    {
      if (!benchmark (run))
        run->status = 1;
      else
        print_memory ("benchmark");
    }
  else
    {
      for (guint i = 0; i < n_pages; i++)
        {
          ds_window_set_page (run->window, pages[i].name);
          ds_ui_test_spin (400);
        }
      ds_window_set_page (run->window, "info");
      ds_ui_test_spin (1000);
      print_memory ("all_pages");
      if (!benchmark (run))
        run->status = 1;
      else
        print_memory ("all_pages_benchmark");
    }

out:
  gtk_window_destroy (GTK_WINDOW (run->window));
  g_application_quit (G_APPLICATION (run->app));
  return G_SOURCE_REMOVE;
}

static void
window_added_cb (GtkApplication *app,
                 GtkWindow      *window,
                 Run            *run)
{
  if (run->window != NULL || !DS_IS_WINDOW (window))
    return;
  run->window = DS_WINDOW (window);
  g_signal_connect (window, "realize", G_CALLBACK (realize_cb), run);
  g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), run);
  g_idle_add (measure_cb, run);
}

int
main (int argc, char **argv)
{
  Run run = { 0 };
  const char *page;
  int status;

  if (argc != 3 || (strcmp (argv[1], "launch") != 0 && strcmp (argv[1], "benchmark") != 0 &&
                    strcmp (argv[1], "all-pages") != 0))
    {
      fprintf (stderr, "usage: ds-ui-memory launch|benchmark|all-pages DEVICE\n");
      return 2;
    }
  run.mode = argv[1];
  page = strcmp (run.mode, "benchmark") == 0 ? "benchmark" : "info";

  {
    /* What app/diskscope.c does, with the options a user would type. */
    char *app_argv[] = { (char *) "diskscope", (char *) "--device", argv[2], (char *) "--page",
                         (char *) page, NULL };

    ds_application_prepare_environment ();
    run.app = ds_application_new ();
    g_signal_connect (run.app, "window-added", G_CALLBACK (window_added_cb), &run);
    status = g_application_run (G_APPLICATION (run.app), G_N_ELEMENTS (app_argv) - 1, app_argv);
  }
  g_clear_object (&run.app);
  return status != 0 ? status : run.status;
}
