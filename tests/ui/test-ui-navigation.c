/* test-ui-navigation.c: finding devices, moving around, choosing files
 *
 * Runs under Xvfb (suite "ui") as root: loop devices.  What a new user
 * tripped on, each as they met it:
 *  - the drop-down's search finds a device by its path ("loop11"), its
 *    name and its size, not only by the start of its model's name;
 *  - the window starts on the device used last, else the largest fixed
 *    disk, never on whatever comes first, nor on one that cannot be
 *    opened at all (this machine's system disk, maybe: EPERM);
 *  - Alt+1…9 and Ctrl+Page Up/Down switch pages, and every key the window
 *    binds (Ctrl+O included) is in the shortcuts window;
 *  - the write confirmation keeps the device's path on one line;
 *  - the File Benchmark: "choose a folder first" goes once a folder is
 *    chosen, and the device drop-down, which does not apply, is off;
 *  - file choosers open in Pictures (screenshots) or Documents (reports,
 *    results), then where the user saved last;
 *  - an opened result shows its own device, date and file in a banner and
 *    the window's title, and the banner's button goes back to the device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ds-caption.h"
#include "ds-device-item.h"
#include "ds-graph.h"
#include "ds-pages.h"
#include "ds-settings.h"
#include "ds-test-util.h"
#include "ds-window.h"
#include "ds-write-confirm-dialog.h"
#include "ds-ui-test-util.h"

#define MiB (UINT64_C (1) << 20)

static DsWindow *
open_window (void)
{
  DsWindow *window = ds_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 720);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  return window;
}

static GSettings *
settings (void)
{
  GSettings *settings = ds_settings_new (NULL, NULL);

  ck_assert_ptr_nonnull (settings);
  return settings;
}

/* The paths the drop-down lists after @search was typed into it. */
static char *
search_devices (DsWindow   *window,
                const char *search)
{
  GtkWidget *dropdown = ds_ui_test_window_child (window, "device_dropdown");
  GtkWidget *entry = ds_ui_test_find_descendant (dropdown, GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *list = ds_ui_test_find_descendant (dropdown, GTK_TYPE_LIST_VIEW);
  GListModel *shown;
  GString *paths = g_string_new (NULL);

  ck_assert_msg (entry != NULL && list != NULL, "the drop-down has no search");
  gtk_editable_set_text (GTK_EDITABLE (entry), search);
  /* The entry waits a little before it says the search changed, longer
   * than any fixed wait on a loaded machine: say it now, as it will. */
  g_signal_emit_by_name (entry, "search-changed");
  ds_ui_test_spin (200);

  shown = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)));
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(DsDeviceItem) item = g_list_model_get_item (shown, i);

      g_string_append_printf (paths, "%s ", ds_device_item_get_path (item));
    }

  return g_string_free (paths, FALSE);
}

START_TEST (test_device_search)
{
  /* Sizes no other device here has. */
  g_autofree char *first = ds_test_loop_new (37 * MiB, FALSE);
  g_autofree char *second = ds_test_loop_new (41 * MiB, FALSE);
  g_autofree char *name = g_path_get_basename (second);
  g_autofree char *by_name = NULL;
  g_autofree char *by_path = NULL;
  g_autofree char *by_size = NULL;
  g_autofree char *nothing = NULL;
  g_autofree char *all = NULL;
  g_autofree char *needle = NULL;
  DsWindow *window = open_window ();

  needle = g_strdup_printf ("%s ", second);
  by_name = search_devices (window, name);
  ck_assert_msg (strstr (by_name, needle) != NULL, "“%s” did not find %s: %s", name, second, by_name);
  ck_assert_msg (strstr (by_name, first) == NULL || g_str_has_prefix (second, first),
                 "“%s” found %s too", name, first);

  by_path = search_devices (window, second);
  ck_assert_msg (strstr (by_path, needle) != NULL, "“%s” found: %s", second, by_path);
  if (g_getenv ("DS_UI_TEST_SHOTS") != NULL)
    {
      /* The list as the user sees it, opened. */
      GtkWidget *dropdown = ds_ui_test_window_child (window, "device_dropdown");
      GtkWidget *popover = ds_ui_test_find_descendant (dropdown, GTK_TYPE_POPOVER);

      g_signal_emit_by_name (dropdown, "activate");
      ds_ui_test_wait_mapped (popover);
      ds_ui_test_shoot (popover, "device-search");
      gtk_popover_popdown (GTK_POPOVER (popover));
      ds_ui_test_spin (100);
    }

  by_size = search_devices (window, "41 MiB");
  ck_assert_msg (strstr (by_size, needle) != NULL, "“41 MiB” did not find %s: %s", second, by_size);
  ck_assert_msg (strstr (by_size, first) == NULL, "“41 MiB” found the 37 MiB %s: %s", first, by_size);

  nothing = search_devices (window, "no-such-disk-anywhere");
  ck_assert_str_eq (nothing, "");

  /* Cleared, every device is back. */
  all = search_devices (window, "");
  ck_assert_msg (strstr (all, first) != NULL && strstr (all, second) != NULL, "%s", all);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (second);
  ds_test_loop_detach (first);
}
END_TEST

/* Whether the window may start on @path: it opens for reading, or only
 * the permission is missing (udisks2 may open it).  A disk the kernel
 * keeps even root from (EPERM: a container's system disk) is no start. */
static gboolean
can_open (const char *path)
{
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

  if (fd >= 0)
    close (fd);
  return fd >= 0 || errno == EACCES;
}

/* A listed device that cannot be opened at all, or NULL. */
static char *
unopenable_device (void)
{
  g_autoptr(GPtrArray) devices = ds_device_list (NULL);

  for (guint i = 0; devices != NULL && i < devices->len; i++)
    {
      const DsDevice *device = devices->pdata[i];

      if (device->size_bytes > 0 && !can_open (device->path))
        return g_strdup (device->path);
    }

  return NULL;
}

/* The largest whole, fixed disk the system lists that can be opened, as
 * the window should pick it: worked out here from the core's own listing. */
static char *
largest_fixed_disk (void)
{
  g_autoptr(GPtrArray) devices = ds_device_list (NULL);
  const DsDevice *best = NULL;

  for (guint i = 0; devices != NULL && i < devices->len; i++)
    {
      const DsDevice *device = devices->pdata[i];

      if (!can_open (device->path))
        continue;
      if ((device->type == DS_DEVICE_DISK || device->type == DS_DEVICE_NVME ||
           device->type == DS_DEVICE_MD) && !device->removable && device->size_bytes > 0 &&
          (best == NULL || device->size_bytes > best->size_bytes))
        best = device;
    }

  return best != NULL ? g_strdup (best->path) : NULL;
}

START_TEST (test_start_device)
{
  g_autofree char *loop = ds_test_loop_new (24 * MiB, FALSE);
  g_autofree char *disk = largest_fixed_disk ();
  g_autofree char *unopenable = unopenable_device ();
  g_autoptr(GSettings) config = settings ();
  DsWindow *window;

  /* The device used last. */
  g_settings_set_string (config, "last-device", loop);
  window = open_window ();
  ck_assert_str_eq (ds_window_get_device_path (window), loop);
  gtk_window_destroy (GTK_WINDOW (window));

  /* One that cannot be opened is passed over, even when used last. */
  if (unopenable != NULL)
    {
      g_settings_set_string (config, "last-device", unopenable);
      window = open_window ();
      ds_test_note ("%s cannot be opened: the window starts on %s", unopenable,
                    ds_window_get_device_path (window));
      ck_assert_str_ne (ds_window_get_device_path (window) ? ds_window_get_device_path (window) : "",
                        unopenable);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  else
    ds_test_note ("every device here opens: the unopenable case is test-device-list's");

  /* It is gone: the largest fixed disk, not the first loop device. */
  g_settings_set_string (config, "last-device", "/dev/diskscope-gone");
  window = open_window ();
  if (disk != NULL)
    ck_assert_str_eq (ds_window_get_device_path (window), disk);
  else
    /* A machine with loop devices only: the first that is not a snap's
     * (test-device-list covers that choice). */
    ck_assert_ptr_nonnull (ds_window_get_device_path (window));
  gtk_window_destroy (GTK_WINDOW (window));

  ds_test_loop_detach (loop);
}
END_TEST

static const char *
visible_page (DsWindow *window)
{
  return adw_view_stack_get_visible_child_name (ds_ui_test_window_child (window, "view_stack"));
}

START_TEST (test_page_keys)
{
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);
  DsWindow *window = open_window ();

  ck_assert_uint_ge (n_pages, 3);
  for (guint i = 0; i < MIN (n_pages, 9); i++)
    {
      ck_assert_msg (ds_ui_test_press_keys (GTK_WIDGET (window), GDK_KEY_1 + i, GDK_ALT_MASK),
                     "Alt+%u is not bound", i + 1);
      ck_assert_str_eq (visible_page (window), pages[i].name);
    }

  ck_assert (ds_ui_test_press_keys (GTK_WIDGET (window), GDK_KEY_1, GDK_ALT_MASK));
  ck_assert (ds_ui_test_press_keys (GTK_WIDGET (window), GDK_KEY_Page_Down, GDK_CONTROL_MASK));
  ck_assert_str_eq (visible_page (window), pages[1].name);
  ck_assert (ds_ui_test_press_keys (GTK_WIDGET (window), GDK_KEY_Page_Up, GDK_CONTROL_MASK));
  ck_assert_str_eq (visible_page (window), pages[0].name);
  /* Around the ends. */
  ck_assert (ds_ui_test_press_keys (GTK_WIDGET (window), GDK_KEY_Page_Up, GDK_CONTROL_MASK));
  ck_assert_str_eq (visible_page (window), pages[n_pages - 1].name);
  ck_assert (ds_ui_test_press_keys (GTK_WIDGET (window), GDK_KEY_Page_Down, GDK_CONTROL_MASK));
  ck_assert_str_eq (visible_page (window), pages[0].name);

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* Does @accelerator ("<Primary>s", "<Alt>1...<Alt>9", "a b") show
 * @keyval + @modifiers? */
static gboolean
accelerator_shows (const char      *accelerator,
                   guint            keyval,
                   GdkModifierType  modifiers)
{
  g_auto(GStrv) alternatives = g_strsplit (accelerator, " ", -1);

  keyval = gdk_keyval_to_lower (keyval);
  for (guint i = 0; alternatives[i] != NULL; i++)
    {
      g_auto(GStrv) range = g_strsplit (alternatives[i], "...", 2);
      guint first, last;
      GdkModifierType first_mods, last_mods;

      ck_assert (gtk_accelerator_parse (range[0], &first, &first_mods));
      last = first;
      last_mods = first_mods;
      if (range[1] != NULL)
        ck_assert (gtk_accelerator_parse (range[1], &last, &last_mods));
      if (first_mods == modifiers && keyval >= gdk_keyval_to_lower (first) &&
          keyval <= gdk_keyval_to_lower (last))
        return TRUE;
    }

  return FALSE;
}

static void
collect_accelerators (GtkWidget *widget,
                      GPtrArray *accelerators)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      char *accelerator = NULL;

      g_object_get (widget, "accelerator", &accelerator, NULL);
      if (accelerator != NULL)
        g_ptr_array_add (accelerators, accelerator);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_accelerators (child, accelerators);
}

/* Every key the window binds is in the shortcuts window (Ctrl+O was
 * not). */
START_TEST (test_shortcuts_window)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE "gtk/help-overlay.ui");
  GtkWindow *help = GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
  DsWindow *window = open_window ();
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  g_autoptr(GPtrArray) accelerators = g_ptr_array_new_with_free_func (g_free);
  guint n_bindings = 0;
  gboolean open_shown = FALSE;

  ck_assert_ptr_nonnull (help);
  collect_accelerators (GTK_WIDGET (help), accelerators);
  ck_assert_uint_ge (accelerators->len, 8);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          g_autofree char *name = NULL;
          gboolean shown = FALSE;
          guint keyval;
          GdkModifierType mods;

          /* Ours are the window's actions; GTK's own bindings (the
           * inspector's Ctrl+Shift+D…) are not ours to list. */
          if (!GTK_IS_KEYVAL_TRIGGER (trigger) || !GTK_IS_NAMED_ACTION (action) ||
              !g_str_has_prefix (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), "win."))
            continue;

          keyval = gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger));
          mods = gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger));
          name = gtk_accelerator_name (keyval, mods);
          n_bindings++;
          for (guint k = 0; k < accelerators->len && !shown; k++)
            shown = accelerator_shows (accelerators->pdata[k], keyval, mods);
          ck_assert_msg (shown, "%s (%s) is bound but not in the shortcuts window", name,
                         gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)));
          if (keyval == GDK_KEY_o && mods == GDK_CONTROL_MASK)
            open_shown = TRUE;
        }
    }
  ck_assert_uint_ge (n_bindings, 12);
  ck_assert (open_shown);

  gtk_window_destroy (GTK_WINDOW (window));
  gtk_window_destroy (help);
}
END_TEST

static GtkLabel *
find_label_with (GtkWidget  *widget,
                 const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return GTK_LABEL (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label_with (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* "Destroy All Data on /dev/ loop11?": the heading wrapped inside the
 * path.  It may wrap, between words only. */
START_TEST (test_write_confirm_wrap)
{
  static const char *const paths[] = { "/dev/loop11", "/dev/mapper/vg0-lv_data", "/dev/nvme0n1" };
  DsWindow *window = open_window ();

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      GtkWidget *dialog = ds_write_confirm_dialog_new (GTK_WINDOW (window), paths[i]);
      GtkLabel *heading;
      PangoLayout *layout;
      const char *text, *at;
      int first_line, last_line, x;

      gtk_window_present (GTK_WINDOW (dialog));
      ds_ui_test_wait_mapped (dialog);
      ds_ui_test_spin (200);

      heading = find_label_with (dialog, "Destroy");
      ck_assert_msg (heading != NULL, "no heading");
      layout = gtk_label_get_layout (heading);
      text = pango_layout_get_text (layout);
      at = strstr (text, paths[i]);
      ck_assert_msg (at != NULL, "the heading “%s” does not name %s", text, paths[i]);

      pango_layout_index_to_line_x (layout, at - text, FALSE, &first_line, &x);
      pango_layout_index_to_line_x (layout, at - text + strlen (paths[i]) - 1, FALSE, &last_line, &x);
      printf ("# “%s”: %d lines, the path on line %d to %d\n", text,
              pango_layout_get_line_count (layout), first_line, last_line);
      ck_assert_msg (first_line == last_line, "“%s” is broken across lines %d and %d",
                     paths[i], first_line, last_line);
      if (i == 0)
        ds_ui_test_shoot (dialog, "write-confirm");

      gtk_window_destroy (GTK_WINDOW (dialog));
    }

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

static GObject *
file_page_child (DsWindow   *window,
                 const char *name)
{
  GtkWidget *page = ds_window_get_page_widget (window, "file");

  return gtk_widget_get_template_child (page, G_OBJECT_TYPE (page), name);
}

START_TEST (test_file_page)
{
  g_autofree char *folder = g_build_filename (ds_test_scratch_dir (), "file-page", NULL);
  g_autoptr(GError) error = NULL;
  DsWindow *window = open_window ();
  GtkWidget *dropdown = ds_ui_test_window_child (window, "device_dropdown");
  GtkInfoBar *bar = GTK_INFO_BAR (file_page_child (window, "error_bar"));

  ck_assert_int_eq (g_mkdir_with_parents (folder, 0755), 0);

  ck_assert (gtk_widget_get_sensitive (dropdown));
  ck_assert (ds_window_set_page (window, "file"));
  ck_assert_msg (!gtk_widget_get_sensitive (dropdown),
                 "the device drop-down is on for the File Benchmark, which tests a folder");

  /* Start without a folder: the page says to choose one… */
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.start", NULL));
  ck_assert (gtk_info_bar_get_revealed (bar));
  ck_assert (!ds_session_is_running (ds_window_get_session (window)));
  ds_ui_test_shoot (GTK_WIDGET (window), "file-page-no-folder");

  /* …and stops saying it once one is chosen. */
  ck_assert_msg (ds_window_set_folder (window, folder, &error), "%s", error ? error->message : "");
  ck_assert_msg (!gtk_info_bar_get_revealed (bar), "“choose a folder” stayed after choosing one");
  ds_ui_test_shoot (GTK_WIDGET (window), "file-page-folder");

  ck_assert (ds_window_set_page (window, "benchmark"));
  ck_assert (gtk_widget_get_sensitive (dropdown));

  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

/* The file chooser a save or open action brings up. */
static GtkFileChooser *
chooser_for (DsWindow   *window,
             const char *action)
{
  GtkWindow *dialog;

  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  ds_ui_test_spin (300);
  dialog = ds_ui_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, GTK_WINDOW (window));
  ck_assert_msg (dialog != NULL, "%s showed no file chooser", action);

  return GTK_FILE_CHOOSER (dialog);
}

/* The dialog loads its folder after it is shown: on a slow machine
 * (or under ASan) it may have none yet when the window maps. */
static char *
chooser_folder (GtkFileChooser *chooser)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GFile *folder;

  while ((folder = gtk_file_chooser_get_current_folder (chooser)) == NULL
         && g_get_monotonic_time () < deadline)
    ds_ui_test_spin (20);
  if (folder == NULL)
    return NULL;

  {
    g_autoptr(GFile) owned = folder;

    return g_file_get_path (owned);
  }
}

START_TEST (test_save_folders)
{
  g_autofree char *loop = ds_test_loop_new (24 * MiB, FALSE);
  g_autofree char *pictures = g_build_filename (ds_test_scratch_dir (), "Pictures", NULL);
  g_autofree char *elsewhere = g_build_filename (ds_test_scratch_dir (), "elsewhere", NULL);
  g_autofree char *shot = g_build_filename (elsewhere, "shot.png", NULL);
  g_autoptr(GSettings) config = settings ();
  g_autoptr(GFile) elsewhere_file = NULL;
  g_autoptr(GError) error = NULL;
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  g_autofree char *expected_documents = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *remembered = NULL;
  GtkFileChooser *chooser;
  DsWindow *window;

  ck_assert_int_eq (g_mkdir_with_parents (pictures, 0755), 0);
  ck_assert_int_eq (g_mkdir_with_parents (elsewhere, 0755), 0);
  elsewhere_file = g_file_new_for_path (elsewhere);
  expected_documents = g_strdup (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR)
                                 ? documents : g_get_home_dir ());

  window = open_window ();
  ck_assert (ds_window_select_device (window, loop, &error));

  /* Reports and results: the Documents folder (home without one), not
   * the folder the app was started from. */
  chooser = chooser_for (window, "win.open-result");
  folder = chooser_folder (chooser);
  ck_assert_str_eq (folder, expected_documents);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  ds_ui_test_spin (100);
  g_clear_pointer (&folder, g_free);

  /* Screenshots: where the setting says (Pictures the first time). */
  g_settings_set_string (config, "screenshot-folder", pictures);
  chooser = chooser_for (window, "win.save-screenshot");
  folder = chooser_folder (chooser);
  ck_assert_str_eq (folder, pictures);

  /* Saved somewhere else, the next one opens there. */
  ck_assert (gtk_file_chooser_set_current_folder (chooser, elsewhere_file, NULL));
  gtk_file_chooser_set_current_name (chooser, "shot.png");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  ds_ui_test_spin (500);
  ck_assert_msg (g_file_test (shot, G_FILE_TEST_IS_REGULAR), "no screenshot at %s", shot);
  remembered = g_settings_get_string (config, "screenshot-folder");
  ck_assert_str_eq (remembered, elsewhere);
  g_clear_pointer (&folder, g_free);

  chooser = chooser_for (window, "win.save-screenshot");
  folder = chooser_folder (chooser);
  ck_assert_str_eq (folder, elsewhere);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

typedef struct {
  gboolean finished;
  gboolean success;
} Finished;

static void
run_finished_cb (DsWindow *window,
                 gboolean  success,
                 Finished *finished)
{
  finished->finished = TRUE;
  finished->success = success;
}

static void
run_benchmark (DsWindow   *window,
               const char *device)
{
  g_autoptr(GError) error = NULL;
  Finished finished = { 0 };
  gulong id = g_signal_connect (window, "run-finished", G_CALLBACK (run_finished_cb), &finished);

  ck_assert_msg (ds_window_select_device (window, device, &error), "%s", error ? error->message : "");
  ck_assert (ds_window_set_page (window, "benchmark"));
  ds_session_set_accuracy (ds_window_get_session (window), 1);
  ck_assert_msg (ds_window_start (window, &error), "%s", error ? error->message : "");
  ds_ui_test_wait_for (&finished.finished, 90000, "the end of the run");
  g_signal_handler_disconnect (window, id);
  ck_assert_msg (finished.success, "the run failed: %s",
                 ds_session_get_last_error (ds_window_get_session (window)));
}

/* A /dev/loop10 result opened while /dev/loop11 is selected showed
 * "/dev/loop11 · 2.1 GB" over loop10's curve, and nothing named the file,
 * the device or the date. */
START_TEST (test_opened_result)
{
  g_autofree char *measured = ds_test_loop_new (96 * MiB, FALSE);
  g_autofree char *selected = ds_test_loop_new (64 * MiB, FALSE);
  g_autofree char *saved = g_build_filename (ds_test_scratch_dir (), "measured.json", NULL);
  g_autoptr(GError) error = NULL;
  DsWindow *window = open_window ();
  DsSession *session = ds_window_get_session (window);
  GtkInfoBar *bar = ds_ui_test_window_child (window, "opened_bar");
  GtkLabel *label = ds_ui_test_window_child (window, "opened_label");
  DsGraph *graph = DS_GRAPH (ds_ui_test_benchmark_child (window, "graph"));
  const DsResult *run, *opened;
  g_autofree char *run_started = NULL;
  g_autofree char *when = NULL;
  const char *text;

  run_benchmark (window, measured);
  run = ds_session_get_result (session, DS_BENCH_TRANSFER);
  run_started = g_strdup (run->started_at);
  ck_assert (ds_session_save_result (session, DS_BENCH_TRANSFER, saved, &error));
  ck_assert (!gtk_info_bar_get_revealed (bar));

  /* Another device is selected, and the saved run is opened. */
  run_benchmark (window, selected);
  ck_assert_msg (ds_ui_test_open_result (window, saved, &error), "%s", error ? error->message : "");
  ds_ui_test_spin (100);

  opened = ds_session_get_result (session, DS_BENCH_TRANSFER);
  ck_assert_str_eq (opened->target.path, measured);
  ck_assert_str_eq (ds_session_get_result_file (session, DS_BENCH_TRANSFER), saved);
  ck_assert_str_eq (ds_window_get_device_path (window), selected);

  ck_assert_msg (gtk_info_bar_get_revealed (bar), "no banner for the opened result");
  text = gtk_label_get_text (label);
  when = ds_caption_format_time (run_started);
  ck_assert_msg (strstr (text, measured) != NULL, "the banner “%s” does not name %s", text, measured);
  ck_assert_msg (strstr (text, selected) == NULL, "the banner “%s” names the selected %s", text, selected);
  ck_assert_msg (strstr (text, when) != NULL, "the banner “%s” does not give the date %s", text, when);
  ck_assert_msg (strstr (text, "measured.json") != NULL, "the banner “%s” does not name the file", text);
  ck_assert_msg (strstr (gtk_window_get_title (GTK_WINDOW (window)), "measured.json") != NULL,
                 "the title “%s” does not name the file", gtk_window_get_title (GTK_WINDOW (window)));
  /* The curve is drawn across the measured device, not the selected one. */
  ck_assert_uint_eq ((guint64) ds_graph_get_x_max (graph), 96 * MiB);
  ds_ui_test_shoot (GTK_WIDGET (window), "opened-result");

  /* Back to the live device: the selected device's run is shown again. */
  gtk_info_bar_response (bar, GTK_RESPONSE_CLOSE);
  ds_ui_test_spin (100);
  ck_assert (!gtk_info_bar_get_revealed (bar));
  ck_assert_ptr_null (ds_session_get_result_file (session, DS_BENCH_TRANSFER));
  ck_assert_str_eq (ds_session_get_result (session, DS_BENCH_TRANSFER)->target.path, selected);
  ck_assert_uint_eq ((guint64) ds_graph_get_x_max (graph), 64 * MiB);
  ck_assert_str_eq (gtk_window_get_title (GTK_WINDOW (window)), "Diskscope");

  /* Opened again, a new run takes the page back. */
  ck_assert (ds_ui_test_open_result (window, saved, NULL));
  ck_assert (gtk_info_bar_get_revealed (bar));
  run_benchmark (window, selected);
  ck_assert (!gtk_info_bar_get_revealed (bar));
  ck_assert_ptr_null (ds_session_get_result_file (session, DS_BENCH_TRANSFER));

  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (selected);
  ds_test_loop_detach (measured);
}
END_TEST

int
main (void)
{
  Suite *suite;
  TCase *tc;

  ds_test_init ("ui-navigation");
  ds_test_require_root ("loop devices need root");

  suite = suite_create ("ui-navigation");
  tc = tcase_create ("navigation");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_device_search);
  tcase_add_test (tc, test_start_device);
  tcase_add_test (tc, test_page_keys);
  tcase_add_test (tc, test_shortcuts_window);
  tcase_add_test (tc, test_write_confirm_wrap);
  tcase_add_test (tc, test_file_page);
  tcase_add_test (tc, test_save_folders);
  tcase_add_test (tc, test_opened_result);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
