/* ds-workloads-rows.c: the Workloads page's row editor
 *
 * CrystalDiskMark's Settings dialog: each row of the "custom" preset is a
 * pattern, a block size, a queue depth, threads, a read mix (for the
 * mixed patterns) and, if the row needs it, its own time per run.  Rows
 * are added and removed here; Save checks them with the core's parser
 * (ds_preset_rows_normalize(), the rules --row follows), stores them in
 * the settings (workloads-rows) and selects the custom preset.  The rows
 * that write are confirmed as every write test is, when they start.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-workloads-private.h"

/* In the order of the pattern menu; the words are ds_preset_row_parse()'s. */
static const struct {
  const char *word;
  const char *title;
} patterns[] = {
  { "seq", N_("Sequential, read and write") },
  { "rnd", N_("Random, read and write") },
  { "read", N_("Sequential read") },
  { "write", N_("Sequential write") },
  { "randread", N_("Random read") },
  { "randwrite", N_("Random write") },
  { "randrw", N_("Random mix") },
  { "rw", N_("Sequential mix") },
};

static const char *const block_sizes[] = {
  "512", "4k", "8k", "16k", "32k", "64k", "128k", "256k", "512k",
  "1m", "2m", "4m", "8m", "16m", "32m", "64m",
};

/* A row's own time per run; 0: the page's. */
static const unsigned times_s[] = { 0, 1, 2, 5, 10, 20, 30, 60 };

typedef struct {
  GtkWidget   *box;
  GtkDropDown *pattern;
  GtkDropDown *block;
  GtkSpinButton *queue;
  GtkSpinButton *threads;
  GtkSpinButton *mix;
  GtkDropDown *time;
} RowWidgets;

typedef struct {
  DsWorkloadsPage *page;
  GtkWindow       *window;
  GtkBox          *list;
  GtkLabel        *error;
  GtkWidget       *add_button;
  GPtrArray       *rows;      /* RowWidgets* */
} Editor;

static void
editor_free (Editor *editor)
{
  g_ptr_array_unref (editor->rows);
  g_object_unref (editor->page);
  g_free (editor);
}

static gboolean
is_mixed (guint pattern)
{
  return pattern < G_N_ELEMENTS (patterns) &&
         (g_str_equal (patterns[pattern].word, "randrw") || g_str_equal (patterns[pattern].word, "rw"));
}

static void
pattern_changed_cb (RowWidgets *row)
{
  gtk_widget_set_sensitive (GTK_WIDGET (row->mix),
                            is_mixed (gtk_drop_down_get_selected (row->pattern)));
}

/* The row's text, as --row takes it. */
static char *
row_text (RowWidgets *row)
{
  guint pattern = gtk_drop_down_get_selected (row->pattern);
  guint block = gtk_drop_down_get_selected (row->block);
  guint time = gtk_drop_down_get_selected (row->time);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%s,%s,qd%d,t%d",
                          patterns[MIN (pattern, G_N_ELEMENTS (patterns) - 1)].word,
                          block_sizes[MIN (block, G_N_ELEMENTS (block_sizes) - 1)],
                          gtk_spin_button_get_value_as_int (row->queue),
                          gtk_spin_button_get_value_as_int (row->threads));
  if (is_mixed (pattern))
    g_string_append_printf (text, ",mix%d", gtk_spin_button_get_value_as_int (row->mix));
  if (time > 0 && time < G_N_ELEMENTS (times_s))
    g_string_append_printf (text, ",%us", times_s[time]);

  return g_string_free (text, FALSE);
}

/* Sets @row's widgets from a parsed row. */
static void
row_show (RowWidgets        *row,
          const DsPresetRow *parsed)
{
  const char *word = ds_preset_row_pattern (parsed);
  g_autofree char *text = ds_preset_row_to_string (parsed);
  g_auto (GStrv) parts = g_strsplit (text, ",", 3);

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    if (g_str_equal (patterns[i].word, word))
      gtk_drop_down_set_selected (row->pattern, i);
  for (guint i = 0; i < G_N_ELEMENTS (block_sizes); i++)
    if (g_str_equal (block_sizes[i], parts[1]))
      gtk_drop_down_set_selected (row->block, i);
  gtk_spin_button_set_value (row->queue, parsed->queue_depth);
  gtk_spin_button_set_value (row->threads, parsed->threads);
  gtk_spin_button_set_value (row->mix, parsed->columns & DS_MARK_COLUMN (DS_MARK_MIX) ?
                             parsed->mix_percent : 70);
  gtk_drop_down_set_selected (row->time, 0);
  for (guint i = 1; i < G_N_ELEMENTS (times_s); i++)
    if ((uint64_t) times_s[i] * G_USEC_PER_SEC * 1000 == parsed->duration_ns)
      gtk_drop_down_set_selected (row->time, i);
  pattern_changed_cb (row);
}

static GtkSpinButton *
spin_new (const char *tooltip,
          double      min,
          double      max,
          double      value)
{
  GtkSpinButton *spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (min, max, 1));

  gtk_spin_button_set_value (spin, value);
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin), tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  return spin;
}

static GtkWidget *
caption_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void remove_clicked_cb (GtkButton *button,
                               Editor    *editor);

static void
update_add_button (Editor *editor)
{
  gtk_widget_set_sensitive (editor->add_button, editor->rows->len < DS_WORKLOADS_MAX_ROWS);
  for (guint i = 0; i < editor->rows->len; i++)
    {
      RowWidgets *row = editor->rows->pdata[i];
      GtkWidget *remove = gtk_widget_get_last_child (row->box);

      gtk_widget_set_sensitive (remove, editor->rows->len > 1);
    }
}

static RowWidgets *
add_row (Editor            *editor,
         const DsPresetRow *parsed)
{
  RowWidgets *row = g_new0 (RowWidgets, 1);
  g_autoptr (GPtrArray) titles = g_ptr_array_new ();
  g_autoptr (GPtrArray) times = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *remove;

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    g_ptr_array_add (titles, (gpointer) _(patterns[i].title));
  g_ptr_array_add (titles, NULL);
  g_ptr_array_add (times, g_strdup (_("Page’s time")));
  for (guint i = 1; i < G_N_ELEMENTS (times_s); i++)
    g_ptr_array_add (times, g_strdup_printf (_("%u s"), times_s[i]));
  g_ptr_array_add (times, NULL);

  row->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  row->pattern = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *const *) titles->pdata));
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->pattern), _("Pattern"));
  gtk_widget_set_hexpand (GTK_WIDGET (row->pattern), TRUE);
  row->block = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (block_sizes));
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->block), _("Block size"));
  row->queue = spin_new (_("Queue depth per thread"), 1, 4096, 1);
  row->threads = spin_new (_("Threads"), 1, 1024, 1);
  row->mix = spin_new (_("Reads in the mix, percent"), 0, 100, 70);
  row->time = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *const *) times->pdata));
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->time), _("Time per run"));
  remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_set_tooltip_text (remove, _("Remove Row"));
  g_object_set_data (G_OBJECT (remove), "ds-row", row);
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked_cb), editor);
  g_signal_connect_swapped (row->pattern, "notify::selected", G_CALLBACK (pattern_changed_cb), row);

  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->pattern));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->block));
  gtk_box_append (GTK_BOX (row->box), caption_new (C_("queue depth", "Q")));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->queue));
  gtk_box_append (GTK_BOX (row->box), caption_new (C_("threads", "T")));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->threads));
  gtk_box_append (GTK_BOX (row->box), caption_new (C_("read mix", "R%")));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->mix));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->time));
  gtk_box_append (GTK_BOX (row->box), remove);
  gtk_box_append (editor->list, row->box);
  g_ptr_array_add (editor->rows, row);

  if (parsed != NULL)
    row_show (row, parsed);
  else
    gtk_drop_down_set_selected (row->block, 1);   /* 4k */
  pattern_changed_cb (row);
  update_add_button (editor);

  return row;
}

static void
remove_clicked_cb (GtkButton *button,
                   Editor    *editor)
{
  RowWidgets *row = g_object_get_data (G_OBJECT (button), "ds-row");

  if (editor->rows->len <= 1)
    return;
  gtk_box_remove (editor->list, row->box);
  g_ptr_array_remove (editor->rows, row);
  update_add_button (editor);
}

static void
add_clicked_cb (Editor *editor)
{
  add_row (editor, NULL);
}

/* Every row's text, ";" between them. */
static char *
editor_text (Editor *editor)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < editor->rows->len; i++)
    {
      g_autofree char *one = row_text (editor->rows->pdata[i]);

      g_string_append_printf (text, "%s%s", i ? ";" : "", one);
    }
  return g_string_free (text, FALSE);
}

static void
save_clicked_cb (Editor *editor)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = editor_text (editor);
  g_autofree char *rows = ds_preset_rows_normalize (text, &error);

  if (rows == NULL)
    {
      gtk_label_set_label (editor->error, error->message);
      gtk_widget_set_visible (GTK_WIDGET (editor->error), TRUE);
      return;
    }
  _ds_workloads_controls_set_rows (editor->page, rows, TRUE);
  gtk_window_destroy (editor->window);
}

static void
load_rows (Editor     *editor,
           const char *text)
{
  g_auto (GStrv) rows = g_strsplit (text != NULL ? text : "", ";", -1);

  for (guint i = 0; rows[i] != NULL && i < DS_WORKLOADS_MAX_ROWS; i++)
    {
      DsPresetRow parsed;

      if (ds_preset_row_parse (rows[i], &parsed, NULL))
        add_row (editor, &parsed);
    }
  if (editor->rows->len == 0)
    add_row (editor, NULL);
}

GtkWindow *
ds_workloads_page_edit_rows (DsWorkloadsPage *self)
{
  Editor *editor = g_new0 (Editor, 1);
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *save = gtk_button_new_with_mnemonic (_("_Save"));
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *intro = gtk_label_new (_("Each row runs as one line of the grid: its pattern, block size, "
                                      "queue depth (Q) per thread, threads (T), and for a mix the "
                                      "percentage of reads. Rows that write ask for the device’s name "
                                      "before they start."));
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  g_return_val_if_fail (DS_IS_WORKLOADS_PAGE (self), NULL);

  editor->page = g_object_ref (self);
  editor->rows = g_ptr_array_new_with_free_func (g_free);
  editor->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (editor->window, _("Custom Rows"));
  gtk_window_set_modal (editor->window, TRUE);
  gtk_window_set_default_size (editor->window, 820, 460);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (editor->window, GTK_WINDOW (root));
  gtk_window_set_destroy_with_parent (editor->window, TRUE);
  g_object_set_data_full (G_OBJECT (editor->window), "ds-editor", editor, (GDestroyNotify) editor_free);

  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), save);
  gtk_widget_add_css_class (save, "suggested-action");
  gtk_window_set_titlebar (editor->window, header);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), editor->window);
  g_signal_connect_swapped (save, "clicked", G_CALLBACK (save_clicked_cb), editor);

  gtk_widget_set_margin_start (content, 18);
  gtk_widget_set_margin_end (content, 18);
  gtk_widget_set_margin_top (content, 12);
  gtk_widget_set_margin_bottom (content, 18);
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_box_append (GTK_BOX (content), intro);

  editor->list = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 6));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (editor->list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (content), scrolled);

  editor->add_button = gtk_button_new_with_mnemonic (_("_Add Row"));
  gtk_widget_set_halign (editor->add_button, GTK_ALIGN_START);
  g_signal_connect_swapped (editor->add_button, "clicked", G_CALLBACK (add_clicked_cb), editor);
  gtk_box_append (GTK_BOX (content), editor->add_button);

  editor->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (editor->error, TRUE);
  gtk_label_set_xalign (editor->error, 0);
  gtk_widget_add_css_class (GTK_WIDGET (editor->error), "error");
  gtk_widget_set_visible (GTK_WIDGET (editor->error), FALSE);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (editor->error));
  gtk_window_set_child (editor->window, content);

  load_rows (editor, _ds_workloads_controls_get_rows (self));
  gtk_window_present (editor->window);

  return editor->window;
}

gboolean
ds_workloads_rows_editor_set (GtkWindow   *window,
                              guint        index,
                              const char  *text,
                              GError     **error)
{
  Editor *editor = g_object_get_data (G_OBJECT (window), "ds-editor");
  DsPresetRow parsed;

  g_return_val_if_fail (editor != NULL, FALSE);

  if (text == NULL)
    {
      if (index < editor->rows->len)
        remove_clicked_cb (GTK_BUTTON (gtk_widget_get_last_child (((RowWidgets *) editor->rows->pdata[index])->box)),
                           editor);
      return TRUE;
    }
  if (!ds_preset_row_parse (text, &parsed, error))
    return FALSE;
  if (index >= editor->rows->len)
    add_row (editor, &parsed);
  else
    row_show (editor->rows->pdata[index], &parsed);
  return TRUE;
}

void
ds_workloads_rows_editor_save (GtkWindow *window)
{
  Editor *editor = g_object_get_data (G_OBJECT (window), "ds-editor");

  g_return_if_fail (editor != NULL);
  save_clicked_cb (editor);
}
