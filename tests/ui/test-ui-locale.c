/* test-ui-locale.c: the app in Russian and Chinese, nothing cut off
 *
 * Runs under Xvfb (suite "ui") as root: it generates the locales it needs
 * (localedef, from Debian's locales package) and mounts in a private mount
 * namespace.  The seeds' authors wrote in Russian, Polish and Chinese;
 * started uninstalled, the app never loaded its translations.  Covers:
 *  - the app installed as a user installs it (meson install into a
 *    staging folder, then seen at its real prefix through an overlay
 *    mount that only the test's own processes see) and started under
 *    ru_RU.UTF-8 and zh_CN.UTF-8 speaks the language: its screenshot's
 *    caption names the page in it;
 *  - with the installed catalogs, every page's title is the .po file's
 *    translation (not the English), and on every page no label is
 *    ellipsized (the device drop-down's model names excepted: they are
 *    shortened on purpose) or drawn outside the window or a clipping
 *    parent; a screenshot of the whole window is taken for each language
 *    (kept in $DS_TEST_KEEP_PICTURES when set, to be looked at).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <check.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ds-pages.h"
#include "ds-png-text.h"
#include "ds-test-util.h"
#include "ds-window.h"
#include "ds-ui-test-util.h"

typedef struct {
  const char *locale;     /* as LC_ALL takes it */
  const char *input;      /* localedef -i */
  const char *po;         /* po/<po>.po */
} Language;

static const Language languages[] = {
  { "ru_RU.UTF-8", "ru_RU", "ru" },
  { "zh_CN.UTF-8", "zh_CN", "zh_CN" },
};

/* Where `meson install --destdir` put the app (main() installs it). */
static char *staging;


/* The .po file's translation of @msgid (single-line entries), or NULL. */
static char *
po_translation (const char *po,
                const char *msgid)
{
  g_autofree char *path = g_build_filename (g_getenv ("DS_SOURCE_ROOT"), "po", po, NULL);
  g_autofree char *path_po = g_strconcat (path, ".po", NULL);
  g_autofree char *text = NULL;
  g_autofree char *needle = g_strdup_printf ("\nmsgid \"%s\"\nmsgstr \"", msgid);
  const char *at, *end;

  ck_assert_msg (g_file_get_contents (path_po, &text, NULL, NULL), "cannot read %s", path_po);
  at = strstr (text, needle);
  if (at == NULL)
    return NULL;
  at += strlen (needle);
  end = strchr (at, '"');
  return end > at ? g_strndup (at, end - at) : NULL;
}

static gboolean
label_is_exempt (GtkWidget *label)
{
  /* The model names in the device drop-down are shortened on purpose
   * (max-width-chars): the path and size beside them are not. */
  for (GtkWidget *w = label; w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_DROP_DOWN (w))
      return gtk_label_get_ellipsize (GTK_LABEL (label)) != PANGO_ELLIPSIZE_NONE;

  return FALSE;
}

/* Does @inner lie inside @outer (to a pixel), across and, unless
 * @scrolls, down? */
static gboolean
inside (const graphene_rect_t *inner,
        const graphene_rect_t *outer,
        gboolean               scrolls)
{
  if (inner->origin.x < outer->origin.x - 1 ||
      inner->origin.x + inner->size.width > outer->origin.x + outer->size.width + 1)
    return FALSE;

  return scrolls || (inner->origin.y >= outer->origin.y - 1 &&
                     inner->origin.y + inner->size.height <= outer->origin.y + outer->size.height + 1);
}

/* Every drawn label: not ellipsized, inside the window and inside every
 * ancestor that clips its children.  In a scrolled window (the Info page)
 * a label may lie below the fold: only its width counts. */
static void
check_labels (GtkWidget  *widget,
              GtkWidget  *root,
              const char *where,
              guint      *n_checked)
{
  if (!gtk_widget_is_drawable (widget))
    return;

  if (GTK_IS_LABEL (widget) && !label_is_exempt (widget) &&
      gtk_label_get_text (GTK_LABEL (widget))[0] != '\0')
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));
      PangoLayout *layout = gtk_label_get_layout (GTK_LABEL (widget));
      graphene_rect_t bounds, window;
      gboolean scrolls = FALSE;

      for (GtkWidget *a = gtk_widget_get_parent (widget); a != NULL; a = gtk_widget_get_parent (a))
        scrolls |= GTK_IS_SCROLLED_WINDOW (a);

      (*n_checked)++;
      ck_assert_msg (!pango_layout_is_ellipsized (layout), "%s: “%s” is cut short (…)", where, text);
      ck_assert (gtk_widget_compute_bounds (widget, root, &bounds));
      graphene_rect_init (&window, 0, 0, gtk_widget_get_width (root), gtk_widget_get_height (root));
      ck_assert_msg (inside (&bounds, &window, scrolls), "%s: “%s” is outside the window", where, text);

      for (GtkWidget *a = gtk_widget_get_parent (widget); a != NULL && a != root; a = gtk_widget_get_parent (a))
        {
          graphene_rect_t clip;

          if (gtk_widget_get_overflow (a) != GTK_OVERFLOW_HIDDEN)
            continue;
          ck_assert (gtk_widget_compute_bounds (a, root, &clip));
          ck_assert_msg (inside (&bounds, &clip, scrolls), "%s: “%s” is clipped by its %s",
                         where, text, G_OBJECT_TYPE_NAME (a));
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    check_labels (child, root, where, n_checked);
}

static void
save_window (GtkWidget  *window,
             const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int width = gtk_widget_get_width (window), height = gtk_widget_get_height (window);
  const char *keep = g_getenv ("DS_TEST_KEEP_PICTURES");
  g_autofree char *path = g_build_filename (keep ? keep : ds_test_scratch_dir (), name, NULL);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  ck_assert (gdk_texture_save_to_png (texture, path));
  printf ("# the window in %s: %s\n", name, path);
}

/* Switches the process to @language with the installed catalogs. */
static void
use_language (const Language *language)
{
  g_autofree char *localedir = g_build_filename (staging, LOCALEDIR, NULL);

  g_setenv ("LC_ALL", language->locale, TRUE);
  g_unsetenv ("LANGUAGE");
  ck_assert_msg (setlocale (LC_ALL, "") != NULL, "the locale %s is not there", language->locale);
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

static void
check_window_in (const Language *language)
{
  guint n_pages, n_checked = 0;
  const DsPageInfo *pages = ds_pages_get (&n_pages);
  AdwViewStack *stack;
  DsWindow *window;

  use_language (language);
  ds_ui_test_setup ();

  window = ds_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 720);
  gtk_window_present (GTK_WINDOW (window));
  ds_ui_test_wait_mapped (GTK_WIDGET (window));
  stack = ds_ui_test_window_child (window, "view_stack");

  for (guint i = 0; i < n_pages; i++)
    {
      AdwViewStackPage *page = adw_view_stack_get_page (stack, adw_view_stack_get_child_by_name (stack, pages[i].name));
      const char *shown = adw_view_stack_page_get_title (page);
      g_autofree char *expected = po_translation (language->po, pages[i].title);
      g_autofree char *where = NULL;

      ck_assert_msg (expected != NULL, "po/%s.po does not translate “%s”", language->po, pages[i].title);
      ck_assert_msg (g_str_equal (shown, expected), "the %s page is called “%s”, not “%s” (%s)",
                     pages[i].name, shown, expected, language->locale);
      ck_assert_str_ne (shown, pages[i].title);

      ck_assert (ds_window_set_page (window, pages[i].name));
      ds_ui_test_wait_drawn (ds_window_get_page_widget (window, pages[i].name), 2);
      ds_ui_test_spin (300);
      where = g_strdup_printf ("%s, %s page", language->locale, pages[i].name);
      check_labels (GTK_WIDGET (window), GTK_WIDGET (window), where, &n_checked);
      if (i == 0)
        {
          g_autofree char *name = g_strdup_printf ("locale-%s.png", language->po);

          save_window (GTK_WIDGET (window), name);
        }
    }

  printf ("# %s: %u labels checked on %u pages\n", language->locale, n_checked, n_pages);
  ck_assert_uint_ge (n_checked, 50);
  gtk_window_destroy (GTK_WINDOW (window));
}

START_TEST (test_window_ru)
{
  check_window_in (&languages[0]);
}
END_TEST

START_TEST (test_window_zh)
{
  check_window_in (&languages[1]);
}
END_TEST

/* The installed app, at its real prefix (an overlay of the staging folder
 * in a private mount namespace), under @language: its screenshot's
 * caption names the page in that language. */
static void
check_installed_in (const Language *language)
{
  g_autofree char *bin = g_build_filename (staging, PREFIX, "bin", "diskscope", NULL);
  g_autofree char *share = g_build_filename (staging, PREFIX, "share", NULL);
  g_autofree char *schemas = g_build_filename (share, "glib-2.0", "schemas", NULL);
  g_autofree char *name = g_strdup_printf ("installed-%s.png", language->po);
  const char *keep = g_getenv ("DS_TEST_KEEP_PICTURES");
  g_autofree char *png = g_build_filename (keep ? keep : ds_test_scratch_dir (), name, NULL);
  g_autofree char *mountpoint = NULL;
  g_autofree char *lower = NULL;
  g_autofree char *data_dirs = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = po_translation (language->po, "Benchmark");
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *title = NULL;
  g_autofree char *lc_all = g_strdup_printf ("LC_ALL=%s", language->locale);
  gsize length;
  int status;

  /* The deepest folder of LOCALEDIR that exists here: the overlay shows the
   * staged tree over it, hiding nothing. */
  mountpoint = g_strdup (LOCALEDIR);
  while (!g_file_test (mountpoint, G_FILE_TEST_IS_DIR))
    {
      char *parent = g_path_get_dirname (mountpoint);

      g_free (mountpoint);
      mountpoint = parent;
    }
  ck_assert_msg (g_strcmp0 (mountpoint, "/") != 0, "no folder of %s exists to mount over", LOCALEDIR);
  lower = g_strdup_printf ("lowerdir=%s%s:%s", staging, mountpoint, mountpoint);
  data_dirs = g_strdup_printf ("XDG_DATA_DIRS=%s:/usr/local/share:/usr/share", share);

  {
    g_autofree char *script = g_strdup_printf ("mount -t overlay overlay -o '%s' '%s' && exec \"$@\"",
                                               lower, mountpoint);
    g_autofree char *schema_env = g_strdup_printf ("GSETTINGS_SCHEMA_DIR=%s", schemas);
    const char *argv[] = {
      "unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh",
      "env", "-u", "LANGUAGE", lc_all, data_dirs, schema_env, "GSETTINGS_BACKEND=memory",
      bin, "--page", "benchmark", "--screenshot", png, "--quit-when-done", NULL
    };

    status = ds_test_run (argv, NULL, &err);
    ck_assert_msg (status == 0, "the installed app exited %d: %s", status, err);
  }

  ck_assert (g_file_get_contents (png, &contents, &length, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  title = ds_png_get_text (bytes, "Title");
  printf ("# the installed app in %s: “%s” (%s)\n", language->locale, title, png);
  ck_assert_msg (title != NULL && strstr (title, expected) != NULL,
                 "the installed app's caption “%s” does not say “%s”: its translations did not load",
                 title, expected);
}

START_TEST (test_installed_ru)
{
  check_installed_in (&languages[0]);
}
END_TEST

START_TEST (test_installed_zh)
{
  check_installed_in (&languages[1]);
}
END_TEST

/* Makes @language's locale if the system does not have it yet; TRUE if
 * it made it (this process cannot use it before it starts again: glibc
 * has mapped the locale archive as it was). */
static gboolean
make_locale (const Language *language)
{
  const char *argv[] = { "localedef", "-i", language->input, "-f", "UTF-8", language->locale, NULL };
  g_autofree char *err = NULL;
  int status;

  if (setlocale (LC_ALL, language->locale) != NULL)
    return FALSE;

  status = ds_test_run (argv, NULL, &err);
  if (status != 0)
    {
      printf ("Bail out! cannot make the %s locale (localedef exited %d: %s); "
              "tools/install-deps installs the locales package\n",
              language->locale, status, err ? err : "");
      exit (1);
    }

  return TRUE;
}

/* meson install into the scratch folder, and the schemas compiled there
 * as the install would do at the real prefix. */
static void
install_staged (void)
{
  const char *build_root = g_getenv ("DS_BUILD_ROOT");
  const char *install[] = {
    "meson", "install", "-C", build_root, "--no-rebuild", "--quiet", "--destdir", staging, NULL
  };
  g_autofree char *schemas = g_build_filename (staging, PREFIX, "share", "glib-2.0", "schemas", NULL);
  const char *compile[] = { "glib-compile-schemas", schemas, NULL };
  g_autofree char *err = NULL;
  int status;

  /* Not ck_assert: this runs before the suite does. */
  if (build_root == NULL || g_getenv ("DS_SOURCE_ROOT") == NULL)
    {
      printf ("Bail out! DS_BUILD_ROOT and DS_SOURCE_ROOT are not set (meson sets them)\n");
      exit (1);
    }

  status = ds_test_run (install, NULL, &err);
  if (status != 0)
    {
      printf ("Bail out! meson install failed (%d): %s\n", status, err ? err : "");
      exit (1);
    }
  g_clear_pointer (&err, g_free);
  if (ds_test_run (compile, NULL, &err) != 0)
    {
      printf ("Bail out! glib-compile-schemas failed: %s\n", err ? err : "");
      exit (1);
    }
}

int
main (int    argc,
      char **argv)
{
  Suite *suite;
  TCase *tc;
  gboolean made = FALSE;

  ds_test_require_root ("it makes locales and mounts an overlay");

  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    made |= make_locale (&languages[i]);
  if (made && g_getenv ("DS_TEST_LOCALES_MADE") == NULL)
    {
      /* Again, as a new process that sees the locales just made. */
      g_setenv ("DS_TEST_LOCALES_MADE", "1", TRUE);
      execv ("/proc/self/exe", argv);
      printf ("Bail out! cannot start again after making the locales: %s\n", g_strerror (errno));
      return 1;
    }
  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    if (setlocale (LC_ALL, languages[i].locale) == NULL)
      {
        printf ("Bail out! the %s locale is not usable after localedef made it\n", languages[i].locale);
        return 1;
      }
  setlocale (LC_ALL, "C.UTF-8");

  ds_test_init ("ui-locale");

  staging = g_build_filename (ds_test_scratch_dir (), "staging", NULL);
  install_staged ();

  suite = suite_create ("ui-locale");
  tc = tcase_create ("locale");
  tcase_set_timeout (tc, 180);
  tcase_add_test (tc, test_window_ru);
  tcase_add_test (tc, test_window_zh);
  tcase_add_test (tc, test_installed_ru);
  tcase_add_test (tc, test_installed_zh);
  suite_add_tcase (suite, tc);

  return ds_test_run_suite (suite);
}
