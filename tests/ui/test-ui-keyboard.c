/* test-ui-keyboard.c: every control of every page is reachable by Tab
 *
 * Runs under Xvfb (suite "ui").  For each page of the page table the test
 * walks the focus with Tab (gtk_widget_child_focus on the window, as the
 * key does) until it comes round, and checks that it passed the Start
 * button, the device drop-down, the page list and every control the page
 * shows (buttons, drop-downs, spin buttons, switches, check buttons,
 * entries, scales): a user without a mouse can reach all of them.  The
 * results library and the comparison window get the same walk.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>

#include "ds-library-window.h"
#include "ds-pages.h"
#include "ds-window.h"
#include "ds-test-util.h"
#include "ds-ui-test-util.h"

#define MAX_STEPS 3000

/* The widgets Tab gives the focus to, once round from where it starts. */
static GPtrArray *
walk_focus (GtkWindow *window)
{
  GPtrArray *seen = g_ptr_array_new ();
  GtkWidget *first = NULL;

  gtk_window_set_focus (window, NULL);
  for (guint i = 0; i < MAX_STEPS; i++)
    {
      GtkWidget *focus;

      if (!gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD))
        {
          /* Past the last one: the next Tab starts over. */
          gtk_window_set_focus (window, NULL);
          continue;
        }
      focus = gtk_root_get_focus (GTK_ROOT (window));
      if (focus == NULL)
        continue;
      if (focus == first)
        break;
      if (first == NULL)
        first = focus;
      g_ptr_array_add (seen, focus);
    }
  return seen;
}

static gboolean
reached (GPtrArray *seen,
         GtkWidget *widget)
{
  for (guint i = 0; i < seen->len; i++)
    {
      GtkWidget *focus = seen->pdata[i];

      /* The control itself, or a part of it (a drop-down's button)... */
      if (focus == widget || gtk_widget_is_ancestor (focus, widget))
        return TRUE;
      /* ...or the row that activates it (Space and Enter on the row). */
      if (ADW_IS_ACTION_ROW (focus) &&
          adw_action_row_get_activatable_widget (ADW_ACTION_ROW (focus)) == widget)
        return TRUE;
    }
  return FALSE;
}

static gboolean
is_control (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_SPIN_BUTTON (widget) ||
         GTK_IS_SWITCH (widget) || GTK_IS_CHECK_BUTTON (widget) || GTK_IS_ENTRY (widget) ||
         GTK_IS_SEARCH_ENTRY (widget) || GTK_IS_SCALE (widget) || GTK_IS_TEXT (widget);
}

/* The controls a user sees under @widget (not the parts of a control). */
static void
collect_controls (GtkWidget *widget,
                  GPtrArray *controls)
{
  if (!gtk_widget_is_drawable (widget) || !gtk_widget_is_sensitive (widget))
    return;
  /* The title bar's close button is not a Tab stop in any GTK window:
   * Ctrl+W (or the window manager's key) closes instead. */
  if (GTK_IS_WINDOW_CONTROLS (widget))
    return;
  if (is_control (widget))
    {
      g_ptr_array_add (controls, widget);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_controls (child, controls);
}

static char *
describe (GtkWidget *widget)
{
  GString *text = g_string_new (G_OBJECT_TYPE_NAME (widget));
  const char *label = GTK_IS_BUTTON (widget) ? gtk_button_get_label (GTK_BUTTON (widget)) : NULL;
  const char *icon = GTK_IS_BUTTON (widget) ? gtk_button_get_icon_name (GTK_BUTTON (widget)) : NULL;

  if (label != NULL)
    g_string_append_printf (text, " “%s”", label);
  if (icon != NULL)
    g_string_append_printf (text, " icon %s", icon);
  /* Where it is. */
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    {
      const char *tip = gtk_widget_get_tooltip_text (w);

      g_string_append_printf (text, " < %s", G_OBJECT_TYPE_NAME (w));
      if (ADW_IS_PREFERENCES_ROW (w))
        g_string_append_printf (text, " “%s”", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (w)));
      if (tip != NULL)
        g_string_append_printf (text, " “%s”", tip);
    }
  return g_string_free (text, FALSE);
}

/* Every control under @area was reached; returns how many there were. */
static guint
check_controls (GPtrArray  *seen,
                GtkWidget  *area,
                const char *where)
{
  g_autoptr(GPtrArray) controls = g_ptr_array_new ();

  collect_controls (area, controls);
  for (guint i = 0; i < controls->len; i++)
    {
      g_autofree char *what = describe (controls->pdata[i]);

      ck_assert_msg (reached (seen, controls->pdata[i]), "%s: Tab never reaches %s", where, what);
    }
  return controls->len;
}

START_TEST (test_pages_by_tab)
{
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);
  DsWindow *window = ds_window_new (NULL);
  GtkWidget *start, *devices, *page_list;
  AdwViewStack *stack;
  guint n_start = 0;
  /* A device of the test's own, so that Start can be on whatever disks the
   * machine has (the window picks none it cannot open). */
  g_autofree char *loop = ds_test_loop_new (16 << 20, FALSE);
  g_autoptr (GError) error = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 900);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  ck_assert_msg (ds_window_select_device (window, loop, &error), "%s", error ? error->message : "");
  start = ds_ui_test_window_child (window, "start_button");
  devices = ds_ui_test_window_child (window, "device_dropdown");
  page_list = ds_ui_test_window_child (window, "page_list");
  stack = ds_ui_test_window_child (window, "view_stack");

  for (guint i = 0; i < n_pages; i++)
    {
      g_autoptr(GPtrArray) seen = NULL;
      GtkWidget *page;
      guint n;

      ck_assert (ds_window_set_page (window, pages[i].name));
      page = ds_window_get_page_widget (window, adw_view_stack_get_visible_child_name (stack));
      ds_ui_test_wait_drawn (page, 2);
      ds_ui_test_spin (150);
      seen = walk_focus (GTK_WINDOW (window));

      if (seen->len >= MAX_STEPS || g_getenv ("DS_TEST_FOCUS_TRACE"))
        for (guint k = 0; k < MIN (seen->len, 60); k++)
          {
            g_autofree char *what = describe (seen->pdata[k]);
            printf ("# %s %u: %s\n", pages[i].name, k, what);
          }
      fflush (stdout);
      ck_assert_msg (seen->len < MAX_STEPS, "%s: Tab never comes round", pages[i].name);
      /* Start is off where there is nothing to start (Info). */
      if (gtk_widget_is_drawable (start) && gtk_widget_is_sensitive (start))
        {
          ck_assert_msg (reached (seen, start), "%s: Tab never reaches Start", pages[i].name);
          n_start++;
        }
      if (gtk_widget_is_drawable (devices) && gtk_widget_is_sensitive (devices))
        ck_assert_msg (reached (seen, devices), "%s: Tab never reaches the device drop-down",
                       pages[i].name);
      ck_assert_msg (reached (seen, page_list), "%s: Tab never reaches the page list",
                     pages[i].name);
      n = check_controls (seen, page, pages[i].name);
      check_controls (seen, GTK_WIDGET (window), pages[i].name);
      printf ("# %s (%s): %u stops, %u controls on the page, all reached\n", pages[i].name,
              G_OBJECT_TYPE_NAME (page), seen->len, n);
    }

  /* The walk saw Start on the pages that run a test: it can fail. */
  ck_assert_uint_ge (n_start, 5);
  gtk_window_destroy (GTK_WINDOW (window));
  ds_test_loop_detach (loop);
}
END_TEST

START_TEST (test_library_by_tab)
{
  g_autoptr(GPtrArray) seen = NULL;
  DsWindow *window = ds_window_new (NULL);
  GtkWindow *library;

  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  /* Ctrl+L's action. */
  ck_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-library", NULL));
  ds_ui_test_spin (300);
  library = ds_ui_test_find_toplevel (DS_TYPE_LIBRARY_WINDOW, GTK_WINDOW (window));
  ck_assert_msg (library != NULL, "win.show-library opened no library window");
  ds_ui_test_wait_mapped (GTK_WIDGET (library));
  ds_ui_test_spin (300);
  seen = walk_focus (library);
  ck_assert_msg (seen->len > 0 && seen->len < MAX_STEPS, "the library: Tab goes nowhere");
  printf ("# library: %u stops, %u controls, all reached\n", seen->len,
          check_controls (seen, GTK_WIDGET (library), "library"));
  gtk_window_destroy (library);
  gtk_window_destroy (GTK_WINDOW (window));
}
END_TEST

int
main (void)
{
  Suite *suite = suite_create ("ui-keyboard");
  TCase *tc = tcase_create ("keyboard");

  ds_test_init ("ui-keyboard");
  ds_test_require_root ("Start is reached on a loop device of the test's own");
  tcase_add_checked_fixture (tc, ds_ui_test_setup, NULL);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_pages_by_tab);
  tcase_add_test (tc, test_library_by_tab);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
