/* ds-ui-latency.c: the figures behind tests/bench/ui-latency
 *
 *   ds-ui-latency draw [FRAMES]
 *     Draws a Benchmark graph with 200 transfer points and 10 000
 *     access-time dots offscreen FRAMES times (snapshot + render to a
 *     texture with the window's renderer) and prints mean/max ms.
 *   ds-ui-latency stall DEVICE [ACCURACY]
 *     Runs the Benchmark page on DEVICE in a real window while a 1 ms
 *     repeating timer measures the longest gap of the main loop.
 *   ds-ui-latency workloads DEVICE [SECONDS]
 *     The same on the Workloads page: cdm-nvme's RND4K Q32T16 row, reads
 *     only, one run of SECONDS (5), its series drawn live; also prints the
 *     IOPS the step measured (the rate the page kept up with).
 *   ds-ui-latency workloads-hidden DEVICE [SECONDS]
 *     The same run with the Info page shown instead: nothing of the
 *     Workloads page is drawn, so the stall is what the run's threads and
 *     the machine's load alone cost the main loop (a baseline).
 *   DS_UI_LATENCY_NO_TIMER=1 ds-ui-latency workloads DEVICE [SECONDS]
 *     The Workloads run without the 1 ms timer (no stall figure): its
 *     IOPS, for the pairs against the CLI.
 *   ds-ui-latency saturation DEVICE [SECONDS]
 *     The same on the Saturation page: random 4 KiB reads over threads 1
 *     to 16 (1, 2, 4, 8, 16), SECONDS a level (1, 2, 5 or 10), its curve
 *     drawn as each level ends.
 *
 * Prints "key=value" lines; exit 0 unless something failed to run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ds-bench-mark.h"
#include "ds-graph.h"
#include "ds-series.h"
#include "ds-ui-test-util.h"
#include "ds-window.h"
#include "ds-workloads-page.h"

static int
run_draw (int frames)
{
  GtkWidget *window = gtk_window_new ();
  g_autoptr(DsSeries) read = ds_series_new ();
  g_autoptr(DsSeries) access = ds_series_new ();
  GtkWidget *graph = ds_ui_test_graph_new (DS_GRAPH_AXIS_POSITION, read, access);
  g_autoptr(GdkPaintable) paintable = NULL;
  double total_ms = 0, max_ms = 0;
  GskRenderer *renderer;
  GRand *rand = g_rand_new_with_seed (42);
  int width, height;

  /* A 2 TB disk: a falling curve with noise, a failed point, and access
   * times of a spinning disk. */
  for (int i = 0; i < 200; i++)
    ds_series_append (read, i * 1e10, 200e6 - i * 0.5e6 + g_rand_double_range (rand, -5e6, 5e6),
                      i == 120 ? 5 : 0);
  for (int i = 0; i < 10000; i++)
    ds_series_append (access, g_rand_double_range (rand, 0, 2e12),
                      g_rand_double_range (rand, 0.004, 0.020), 0);
  g_rand_free (rand);

  ds_graph_set_x_max (DS_GRAPH (graph), 2e12);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 480);
  gtk_window_present (GTK_WINDOW (window));

  while (!gtk_widget_get_mapped (graph) || gtk_widget_get_width (graph) == 0)
    g_main_context_iteration (NULL, TRUE);

  width = gtk_widget_get_width (graph);
  height = gtk_widget_get_height (graph);
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  paintable = gtk_widget_paintable_new (graph);

  for (int i = 0; i < frames; i++)
    {
      g_autoptr(GskRenderNode) node = NULL;
      g_autoptr(GdkTexture) texture = NULL;
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      gint64 start = g_get_monotonic_time ();
      double ms;

      /* A new point invalidates the cached drawing, as during a run. */
      ds_series_changed (read);
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      texture = gsk_renderer_render_texture (renderer, node,
                                             &GRAPHENE_RECT_INIT (0, 0, width, height));
      ms = (g_get_monotonic_time () - start) / 1000.0;
      total_ms += ms;
      max_ms = MAX (max_ms, ms);
    }

  printf ("draw_size=%dx%d\n", width, height);
  printf ("draw_points=200\ndraw_dots=10000\ndraw_frames=%d\n", frames);
  printf ("draw_renderer=%s\n", G_OBJECT_TYPE_NAME (renderer));
  printf ("draw_mean_ms=%.2f\ndraw_max_ms=%.2f\n", total_ms / frames, max_ms);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

typedef struct {
  gint64   start_us;
  gint64   last_us;
  gint64   max_gap_us;
  /* The run's first sample (its first phase begins): the I/O is going
   * from then on.  Gaps that begin before it are Start's (the click and
   * its repaint, the run's preparation), the others the run's, while the
   * I/O saturates the machine. */
  gint64   io_from_us;
  gint64   start_max_gap_us;
  gint64   io_max_gap_us;
  guint64  ticks;
  gboolean done;
  gboolean success;
  /* Frames drawn during the run: layout to after-paint. */
  gint64   frame_start_us;
  gint64   frame_max_us;
  gint64   frame_total_us;
  guint    frames;
} Stall;

static void
frame_begin_cb (GdkFrameClock *clock,
                Stall         *stall)
{
  stall->frame_start_us = g_get_monotonic_time ();
}

static void
frame_end_cb (GdkFrameClock *clock,
              Stall         *stall)
{
  gint64 elapsed;

  if (stall->frame_start_us == 0 || stall->done)
    return;

  elapsed = g_get_monotonic_time () - stall->frame_start_us;
  stall->frame_max_us = MAX (stall->frame_max_us, elapsed);
  stall->frame_total_us += elapsed;
  stall->frames++;
  stall->frame_start_us = 0;
}

static gboolean
tick_cb (gpointer user_data)
{
  Stall *stall = user_data;
  gint64 now = g_get_monotonic_time ();

  if (stall->last_us != 0)
    {
      stall->max_gap_us = MAX (stall->max_gap_us, now - stall->last_us);
      if (stall->io_from_us != 0 && stall->last_us >= stall->io_from_us)
        stall->io_max_gap_us = MAX (stall->io_max_gap_us, now - stall->last_us);
      else
        stall->start_max_gap_us = MAX (stall->start_max_gap_us, now - stall->last_us);
      if (now - stall->last_us > 10000 && g_getenv ("DS_UI_LATENCY_VERBOSE"))
        fprintf (stderr, "gap of %.1f ms ending at %.3f s (monotonic %.6f s)\n",
                 (now - stall->last_us) / 1000.0, (now - stall->start_us) / 1e6, now / 1e6);
    }
  stall->last_us = now;
  stall->ticks++;

  return G_SOURCE_CONTINUE;
}

static void
samples_cb (DsSession *session,
            guint      kind,
            GArray    *samples,
            Stall     *stall)
{
  if (stall->io_from_us == 0 && samples->len > 0)
    stall->io_from_us = g_get_monotonic_time ();
}

static void
finished_cb (DsWindow *window,
             gboolean  success,
             Stall    *stall)
{
  stall->done = TRUE;
  stall->success = success;
}

/* The Workloads page set for cdm-nvme's RND4K Q32T16 row (the most I/Os
 * a preset asks for), reads only, one run of @seconds; returns the row's
 * Start button. */
static GtkWidget *
setup_workloads (DsWindow *window,
                 unsigned  seconds)
{
  GtkWidget *page = ds_window_get_page_widget (window, "workloads");
  GtkDropDown *time;
  GtkGrid *grid;
  guint time_index = 0;

#define CHILD(name) gtk_widget_get_template_child (page, DS_TYPE_WORKLOADS_PAGE, name)
  if (!ds_workloads_page_set_preset (DS_WORKLOADS_PAGE (page), "cdm-nvme"))
    return NULL;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (CHILD ("count_dropdown")), 0);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (CHILD ("size_dropdown")), 0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (CHILD ("reads_only_button")), TRUE);
  /* The time menu's entries are "1 s", "5 s", …: pick @seconds. */
  time = GTK_DROP_DOWN (CHILD ("time_dropdown"));
  for (guint i = 0; i < g_list_model_get_n_items (gtk_drop_down_get_model (time)); i++)
    {
      g_autofree char *wanted = g_strdup_printf ("%u s", seconds);

      if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (time)), i),
                       wanted))
        time_index = i;
    }
  gtk_drop_down_set_selected (time, time_index);
  grid = GTK_GRID (CHILD ("grid"));
#undef CHILD

  /* Row 3 of the grid (under the headings): RND4K Q32T16. */
  return gtk_grid_get_child_at (grid, 0, 3);
}

static void
print_workloads_iops (DsWindow *window)
{
  const DsResult *result = ds_session_get_result (ds_window_get_session (window), DS_BENCH_MARK);
  const DsMarkData *data = result != NULL ? result->data : NULL;

  for (guint i = 0; data != NULL && i < data->steps->len; i++)
    {
      const DsMarkStep *step = data->steps->pdata[i];

      printf ("workloads_step=%s\nworkloads_iops=%.0f\n", step->id, step->iops);
    }
}

/* The Saturation page set for random reads over threads 1 to 16,
 * @seconds a level. */
static gboolean
setup_saturation (DsWindow *window,
                  unsigned  seconds)
{
  static const unsigned times[] = { 1, 2, 5, 10 };
  guint time_index = 0;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    if (times[i] == seconds)
      time_index = i;
  /* Not ds_ui_test_page_child(): its Check assertions work only inside
   * a test. */
  ds_ui_test_set_sweep (ds_window_get_page_widget (window, "sweep"), 1, 1, 16, time_index);
  return TRUE;
}

/* One run of @window's page (@row_button: the Workloads row that starts
 * it, or NULL), timed; prints its figures.  @hidden: the Info page is
 * shown while it runs. */
static gboolean
measure_run (DsWindow   *window,
             const char *device,
             GtkWidget  *row_button,
             gboolean    hidden,
             gboolean    timer)
{
  g_autoptr(GError) error = NULL;
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  Stall stall = { 0 };
  gint64 start;
  guint source;

  /* Let the window settle first: its first frames (fonts, the first
   * layout of every page) are start-up, not a stall the run causes. */
  ds_ui_test_spin (500);

  g_signal_connect (window, "run-finished", G_CALLBACK (finished_cb), &stall);
  g_signal_connect (ds_window_get_session (window), "samples", G_CALLBACK (samples_cb), &stall);
  g_signal_connect (clock, "layout", G_CALLBACK (frame_begin_cb), &stall);
  g_signal_connect (clock, "after-paint", G_CALLBACK (frame_end_cb), &stall);

  /* The 1 ms timer is a thousand wake-ups a second of the main thread:
   * a cost of its own on a machine the run saturates.  Runs that compare
   * the app's IOPS with the CLI's leave it out (no stall figure then). */
  source = timer ? g_timeout_add (1, tick_cb, &stall) : 0;
  start = stall.start_us = g_get_monotonic_time ();
  if (row_button != NULL)
    g_signal_emit_by_name (row_button, "clicked");
  if (hidden)
    ds_window_set_page (window, "info");
  if (row_button == NULL && !ds_window_start (window, &error))
    {
      fprintf (stderr, "ds-ui-latency: %s\n", error->message);
      stall.done = TRUE;
    }

  while (!stall.done)
    g_main_context_iteration (NULL, TRUE);
  if (source != 0)
    g_source_remove (source);
  g_signal_handlers_disconnect_by_data (clock, &stall);
  g_signal_handlers_disconnect_by_data (ds_window_get_session (window), &stall);
  g_signal_handlers_disconnect_by_data (window, &stall);

  printf ("stall_device=%s\nstall_run_s=%.1f\nstall_ticks=%" G_GUINT64_FORMAT "\n",
          device, (g_get_monotonic_time () - start) / 1e6, stall.ticks);
  if (timer)
    printf ("stall_max_ms=%.2f\nstall_start_max_ms=%.2f\nstall_io_max_ms=%.2f\nstall_io_from_s=%.3f\n",
            stall.max_gap_us / 1000.0, stall.start_max_gap_us / 1000.0, stall.io_max_gap_us / 1000.0,
            stall.io_from_us ? (stall.io_from_us - start) / 1e6 : -1.0);
  printf ("window_frames=%u\nwindow_frame_mean_ms=%.2f\nwindow_frame_max_ms=%.2f\n",
          stall.frames, stall.frames ? stall.frame_total_us / 1000.0 / stall.frames : 0,
          stall.frame_max_us / 1000.0);
  printf ("stall_run_ok=%d\n", stall.success);
  if (row_button != NULL)
    print_workloads_iops (window);

  return stall.success;
}

/* DS_UI_LATENCY_RUNS=N: N runs in one window, the second and later
 * after a line "run=N" (tests/bench/ui-latency prints the second: the
 * first run after launch pays one-time costs the next do not). */
static int
run_stall (const char *device,
           unsigned    accuracy,
           const char *page_name,
           gboolean    hidden)
{
  gboolean workloads = g_str_equal (page_name, "workloads");
  gboolean timer = g_getenv ("DS_UI_LATENCY_NO_TIMER") == NULL;
  const char *runs_env = g_getenv ("DS_UI_LATENCY_RUNS");
  guint n_runs = runs_env != NULL ? (guint) CLAMP (atoi (runs_env), 1, 10) : 1;
  g_autoptr(GError) error = NULL;
  DsWindow *window = ds_window_new (NULL);
  GtkWidget *row_button = NULL;
  gboolean ok = TRUE;

  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)))
    g_main_context_iteration (NULL, TRUE);

  if (!ds_window_select_device (window, device, &error) ||
      !ds_window_set_page (window, page_name))
    {
      fprintf (stderr, "ds-ui-latency: %s\n", error ? error->message : "no such page");
      return 1;
    }

  if (workloads && (row_button = setup_workloads (window, accuracy)) == NULL)
    {
      fprintf (stderr, "ds-ui-latency: the Workloads page has no cdm-nvme row 3\n");
      return 1;
    }
  if (g_str_equal (page_name, "benchmark"))
    ds_session_set_accuracy (ds_window_get_session (window), accuracy);
  if (g_str_equal (page_name, "sweep"))
    setup_saturation (window, accuracy);
  /* The page shown during the baseline's run is made now: making it is
   * start-up, not what the run costs the main loop. */
  if (hidden)
    ds_window_get_page_widget (window, "info");

  for (guint run = 1; run <= n_runs && ok; run++)
    {
      if (run > 1)
        {
          printf ("run=%u\n", run);
          ds_window_set_page (window, page_name);
        }
      ok = measure_run (window, device, row_button, hidden, timer);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  return ok ? 0 : 1;
}

int
main (int argc, char **argv)
{
  if (!gtk_init_check ())
    {
      fprintf (stderr, "ds-ui-latency: no display (run under xvfb-run -a)\n");
      return 1;
    }
  adw_init ();

  if (argc >= 2 && g_str_equal (argv[1], "draw"))
    return run_draw (argc >= 3 ? atoi (argv[2]) : 100);
  if (argc >= 3 && g_str_equal (argv[1], "stall"))
    return run_stall (argv[2], argc >= 4 ? (unsigned) atoi (argv[3]) : 2, "benchmark", FALSE);
  if (argc >= 3 && g_str_equal (argv[1], "workloads"))
    return run_stall (argv[2], argc >= 4 ? (unsigned) atoi (argv[3]) : 5, "workloads", FALSE);
  if (argc >= 3 && g_str_equal (argv[1], "workloads-hidden"))
    return run_stall (argv[2], argc >= 4 ? (unsigned) atoi (argv[3]) : 5, "workloads", TRUE);
  if (argc >= 3 && g_str_equal (argv[1], "saturation"))
    return run_stall (argv[2], argc >= 4 ? (unsigned) atoi (argv[3]) : 1, "sweep", FALSE);

  fprintf (stderr, "usage: ds-ui-latency draw [FRAMES] | stall DEVICE [ACCURACY] | "
           "workloads[-hidden] DEVICE [SECONDS] | saturation DEVICE [SECONDS]\n");
  return 2;
}
