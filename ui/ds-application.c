/* ds-application.c: the application: options, actions, windows
 *
 * Besides the usual app actions, the command line drives the window for
 * scripts and tests:
 *   diskscope --device /dev/loop0 --page benchmark --start \
 *             --screenshot shot.png --quit-when-done [--accuracy 1]
 *   diskscope --folder /mnt/disk --start --quit-when-done   (File Benchmark)
 *   diskscope --open smartctl.json --screenshot health.png --quit-when-done
 *   diskscope --device /dev/loop0 --page sustain --size 128M \
 *             --destroy-data=/dev/loop0 --start --quit-when-done
 *
 * A script is never asked anything: a write test runs only when
 * --destroy-data names its device (else it exits 3 with the gate's words),
 * and the page's controls a script needs are options of their own
 * (ds-application-script.c; each page takes its own, ds_page_set_option()).
 * Exit statuses are diskscope-cli's (0 done, 1 failed, 2 bad usage, 3
 * refused for safety), and 4: no display to open a window on.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ds-application-private.h"
#include "ds-bench.h"
#include "ds-error.h"
#include "ds-pages.h"
#include "ds-preferences-window.h"
#include "ds-settings.h"
#include "ds-window.h"

G_DEFINE_FINAL_TYPE (DsApplication, ds_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "device", 'd', 0, G_OPTION_ARG_FILENAME, NULL, N_("Select the device at PATH"), N_("PATH") },
  { "folder", 'f', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Run the File Benchmark in the folder DIR (shows its page)"), N_("DIR") },
  /* The description names the pages of the page table (ds-pages.c). */
  { "page", 'p', 0, G_OPTION_ARG_STRING, NULL, NULL, N_("NAME") },
  { "open", 'o', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Show a saved result, or a saved smartctl JSON output, on its page"), N_("FILE") },
  { "start", 's', 0, G_OPTION_ARG_NONE, NULL, N_("Start the page’s test"), NULL },
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Save a PNG of the page when the test is done"), N_("FILE") },
  { "quit-when-done", 'q', 0, G_OPTION_ARG_NONE, NULL,
    N_("Quit when the test is done (exit status 0 if it succeeded)"), NULL },
  /* A string: GApplication drops an int option that equals its default
   * (0), and "--accuracy 0" must be refused, not ignored. */
  { "accuracy", 'a', 0, G_OPTION_ARG_STRING, NULL, N_("Accuracy of this run, 1 to 5"), N_("N") },
  { "destroy-data", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Confirm the page’s write test by naming its device again (DESTROYS ITS DATA); "
       "without it a scripted write test is refused (exit status 3)"), N_("DEVICE") },
  { "write", 'w', 0, G_OPTION_ARG_NONE, NULL,
    N_("Benchmark, Extra Tests, Random Access, Block Size: the write test; "
       "Cache Probe: the write-back cache (needs --destroy-data)"), NULL },
  { "preset", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Workloads: the preset (diskscope-cli workload --list-presets)"), N_("NAME") },
  { "reads-only", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Workloads: only the steps that read; Replay: only the trace's reads"), NULL },
  { "size", 0, 0, G_OPTION_ARG_STRING, NULL,
    /* xgettext:no-c-format */
    N_("Sustained Write: how much to write (100% or a size its menu offers); "
       "Workloads: the test size"), N_("SIZE") },
  { "duration", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Sustained Write: the time limit; Workloads: the measure time (one its menu offers)"),
    N_("TIME") },
  { "count", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Workloads: runs per step, 1 to 9"), N_("N") },
  { "random", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Sustained Write: random writes"), NULL },
  { "quick", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Error Scan: the quick scan"), NULL },
  { "trace", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Replay: the trace to replay (a capture file, a blktrace file or a fio iolog)"), N_("FILE") },
  { "speed", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Replay: the speed (0.5, 1, 2, 4 or 8)"), N_("X") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

/* The exit status for what stopped a script, as diskscope-cli's. */
static void
ds_application_activate (GApplication *app)
{
  DsApplication *self = DS_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (ds_window_new (ADW_APPLICATION (app)));

  gtk_window_present (window);
  _ds_application_apply_script (self, DS_WINDOW (window));
}

static void
say_no_display (void)
{
  const char *display = g_getenv ("WAYLAND_DISPLAY");

  if (display == NULL || display[0] == '\0')
    display = g_getenv ("DISPLAY");
  if (display == NULL || display[0] == '\0')
    g_printerr (_("diskscope: no display to open a window on (neither DISPLAY nor "
                  "WAYLAND_DISPLAY is set: not a desktop session, or ssh without -X).\n"));
  else
    g_printerr (_("diskscope: cannot open the display “%s”.\n"), display);
  g_printerr (_("The app needs a desktop session. Without one, diskscope-cli runs the same "
                "tests: diskscope-cli list, diskscope-cli benchmark DEVICE (as root, or "
                "with sudo); diskscope-cli --help lists them all.\n"));
}

static int
ds_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  DsApplication *self = DS_APPLICATION (app);
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  const char *accuracy = NULL;
  gboolean scripted;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("diskscope %s\n", PACKAGE_VERSION);
      return 0;
    }

  g_variant_dict_lookup (options, "device", "^ay", &self->device);
  g_variant_dict_lookup (options, "folder", "^ay", &self->folder);
  g_variant_dict_lookup (options, "open", "^ay", &self->open);
  g_variant_dict_lookup (options, "page", "s", &self->page);
  g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot);
  g_variant_dict_lookup (options, "start", "b", &self->start);
  g_variant_dict_lookup (options, "quit-when-done", "b", &self->quit_when_done);
  g_variant_dict_lookup (options, "destroy-data", "^ay", &self->destroy_data);
  for (guint i = 0; i < DS_N_PAGE_OPTIONS; i++)
    {
      if (_ds_page_options[i].takes_value)
        self->option_given[i] = g_variant_dict_lookup (options, _ds_page_options[i].name, "s",
                                                       &self->option_value[i]);
      else
        g_variant_dict_lookup (options, _ds_page_options[i].name, "b", &self->option_given[i]);
    }
  /* Bad options are bad usage (2), as in diskscope-cli, and are said
   * before any window opens. */
  if (self->page != NULL && ds_pages_lookup (self->page) == NULL)
    {
      g_autofree char *names = ds_pages_list_names ();

      g_printerr (_("diskscope: no page called “%s” (the pages: %s)\n"), self->page, names);
      return 2;
    }
  /* Given at all, it is checked (0 included) by the core's rule. */
  if (g_variant_dict_lookup (options, "accuracy", "&s", &accuracy))
    {
      gint64 value = 0;

      if (!g_ascii_string_to_signed (accuracy, 10, G_MININT, G_MAXINT, &value, &error) ||
          !ds_bench_check_accuracy ((int) value, &error))
        {
          g_printerr (_("diskscope: --accuracy: %s\n"), error->message);
          return 2;
        }
      self->accuracy = (int) value;
    }

  /* Without a display GTK would stop with "cannot open display": say
   * what that means and what works instead. */
  if (!gtk_init_check ())
    {
      say_no_display ();
      return STATUS_NO_DISPLAY;
    }

  /* Without its settings schema GSettings would abort later: say why
   * and stop here. */
  settings = ds_settings_new (NULL, &error);
  if (settings == NULL)
    {
      g_printerr ("diskscope: %s\n", error->message);
      return 1;
    }

  /* A scripted run is its own instance: it must not hand its options to a
   * window that is already open. */
  scripted = self->device || self->folder || self->open || self->page || self->screenshot ||
             self->start || self->quit_when_done || self->destroy_data;
  for (guint i = 0; i < DS_N_PAGE_OPTIONS; i++)
    scripted = scripted || self->option_given[i];
  if (scripted)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);

  return -1;
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (ds_preferences_window_new (parent)));
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  static const char *developers[] = { "The Diskscope authors", NULL };
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  adw_show_about_window (parent,
                         "application-name", _("Diskscope"),
                         "application-icon", APPLICATION_ID,
                         "developer-name", _("The Diskscope authors"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Measure how fast your disks read and write"),
                         "website", "https://github.com/diskscope/diskscope",
                         "issue-url", "https://github.com/diskscope/diskscope/issues",
                         "developers", developers,
                         "copyright", "© 2024 The Diskscope authors",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         /* Translators: your names, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = gtk_application_get_windows (app);

  /* Close the windows (each stops and joins its run), then quit. */
  for (GList *l = windows; l != NULL;)
    {
      GtkWindow *window = l->data;

      l = l->next;
      gtk_window_close (window);
    }

  g_application_quit (G_APPLICATION (app));
}

static const GActionEntry app_actions[] = {
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

static void
ds_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Primary>q", NULL };
  static const char *prefs_accels[] = { "<Primary>comma", NULL };

  G_APPLICATION_CLASS (ds_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs_accels);
}

static void
ds_application_finalize (GObject *object)
{
  DsApplication *self = (DsApplication *) object;

  g_clear_pointer (&self->device, g_free);
  g_clear_pointer (&self->folder, g_free);
  g_clear_pointer (&self->open, g_free);
  g_clear_pointer (&self->page, g_free);
  g_clear_pointer (&self->screenshot, g_free);
  g_clear_pointer (&self->page_help, g_free);
  g_clear_pointer (&self->destroy_data, g_free);
  for (guint i = 0; i < G_N_ELEMENTS (self->option_value); i++)
    g_clear_pointer (&self->option_value[i], g_free);

  G_OBJECT_CLASS (ds_application_parent_class)->finalize (object);
}

static void
ds_application_class_init (DsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = ds_application_finalize;
  app_class->activate = ds_application_activate;
  app_class->startup = ds_application_startup;
  app_class->handle_local_options = ds_application_handle_local_options;
}

static void
ds_application_init (DsApplication *self)
{
  g_autofree char *names = ds_pages_list_names ();
  GOptionEntry entries[G_N_ELEMENTS (option_entries)];

  memcpy (entries, option_entries, sizeof entries);
  self->page_help = g_strdup_printf (_("Show a page: %s"), names);
  for (guint i = 0; entries[i].long_name != NULL; i++)
    if (g_str_equal (entries[i].long_name, "page"))
      entries[i].description = self->page_help;

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Measure how fast your disks read and write."));
}

/* GTK 4.8 on X11 loads OpenGL when it opens the display, to choose the
 * windows' visual, whatever renderer draws them.  With the cairo renderer
 * nothing uses it, yet on a machine that renders OpenGL in software
 * (Mesa's llvmpipe: a server, a virtual machine, `ssh -X`) it is about
 * 60 MB of the app's memory (94 MB for an empty window, 33 MB without).
 * GDK_DEBUG=gl-disable leaves it out; a GDK_DEBUG the user set is theirs. */
void
ds_application_prepare_environment (void)
{
  if (g_strcmp0 (g_getenv ("GSK_RENDERER"), "cairo") == 0 && g_getenv ("GDK_DEBUG") == NULL)
    g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
}

DsApplication *
ds_application_new (void)
{
  return g_object_new (DS_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/diskscope/Diskscope",
                       NULL);
}

int
ds_application_get_exit_status (DsApplication *self)
{
  g_return_val_if_fail (DS_IS_APPLICATION (self), 1);

  return self->exit_status;
}
