/* ds-cli-results-list.c: `diskscope-cli results [list]`, the library's
 * results as a table or as JSON, narrowed by kind, tag and search
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ds-annotation.h"
#include "ds-cli.h"
#include "ds-cli-library.h"
#include "ds-units.h"

static char *
format_local (GDateTime *utc)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (utc);

  return g_date_time_format (local, "%Y-%m-%d %H:%M");
}

static const char *
status_name (DsLibraryStatus status)
{
  switch (status)
    {
    case DS_LIBRARY_STATUS_COMPLETE: return "complete";
    case DS_LIBRARY_STATUS_STOPPED: return "stopped";
    case DS_LIBRARY_STATUS_FAILED: return "failed";
    case DS_LIBRARY_STATUS_UNREADABLE:
    default: return "unreadable";
    }
}

typedef struct {
  const char *kind;
  const char *tag;
  const char *search;
} Filter;

static gboolean
entry_wanted (DsLibraryEntry *entry,
              const Filter   *o)
{
  if (o->kind != NULL && strcmp (ds_library_entry_get_kind_name (entry), o->kind) != 0)
    return FALSE;
  if (o->tag != NULL && !ds_library_entry_has_tag (entry, o->tag))
    return FALSE;
  if (o->search != NULL && !ds_library_entry_matches (entry, o->search))
    return FALSE;

  return TRUE;
}

static void
entry_to_json (JsonBuilder *b,
               gpointer     item)
{
  DsLibraryEntry *e = item;
  g_autofree char *date = g_date_time_format_iso8601 (ds_library_entry_get_date (e));
  const char *const *tags = ds_library_entry_get_tags (e);

#define STR(k, v) G_STMT_START { json_builder_set_member_name (b, k); \
  if ((v) != NULL) json_builder_add_string_value (b, v); else json_builder_add_null_value (b); } G_STMT_END
  json_builder_begin_object (b);
  STR ("id", ds_library_entry_get_id (e));
  STR ("path", ds_library_entry_get_path (e));
  STR ("status", status_name (ds_library_entry_get_status (e)));
  STR ("error", ds_library_entry_get_error_message (e));
  STR ("test", ds_library_entry_is_readable (e) ? ds_library_entry_get_kind_name (e) : NULL);
  STR ("label", ds_library_entry_get_label (e));
  json_builder_set_member_name (b, "custom_label");
  json_builder_add_boolean_value (b, ds_library_entry_has_custom_label (e));
  STR ("notes", ds_library_entry_get_notes (e));
  json_builder_set_member_name (b, "tags");
  json_builder_begin_array (b);
  for (guint i = 0; tags[i] != NULL; i++)
    json_builder_add_string_value (b, tags[i]);
  json_builder_end_array (b);
  STR ("device", ds_library_entry_get_device (e));
  STR ("device_path", ds_library_entry_get_device_path (e));
  json_builder_set_member_name (b, "size_bytes");
  json_builder_add_int_value (b, (gint64) ds_library_entry_get_size_bytes (e));
  STR ("started_at", ds_library_entry_is_readable (e) ? date : NULL);
  STR ("hostname", ds_library_entry_get_hostname (e));
  STR ("summary", ds_library_entry_get_summary (e));
  STR ("model", ds_library_entry_get_model (e));
  STR ("serial", ds_library_entry_get_serial (e));
  STR ("wwn", ds_library_entry_get_wwn (e));
  json_builder_set_member_name (b, "warnings");
  json_builder_add_int_value (b, ds_library_entry_get_n_warnings (e));
  {
    const char *key = NULL, *name = NULL;
    double value = 0;

    json_builder_set_member_name (b, "headline");
    if (ds_library_entry_get_headline (e, &key, &name, NULL, &value))
      {
        json_builder_begin_object (b);
        STR ("key", key);
        STR ("name", name);
        json_builder_set_member_name (b, "value");
        json_builder_add_double_value (b, value);
        json_builder_end_object (b);
      }
    else
      json_builder_add_null_value (b);
  }
  json_builder_end_object (b);
#undef STR
}

/* The results list's columns, in characters. */
typedef struct {
  glong id, kind, status, date, device;
} ListWidths;

static void
list_print_json (DsLibrary *library,
                 GPtrArray *shown)
{
  ds_cli_print_library_json (library, "diskscope-library/1", "results", shown, entry_to_json);
}

static ListWidths
list_widths (GPtrArray *shown)
{
  ListWidths w = { .id = 2, .kind = 4, .status = 10, .date = 16, .device = 6 };

  for (guint i = 0; i < shown->len; i++)
    {
      DsLibraryEntry *e = shown->pdata[i];
      const char *device = ds_library_entry_get_device (e);

      w.id = MAX (w.id, g_utf8_strlen (ds_library_entry_get_id (e), -1));
      w.kind = MAX (w.kind, g_utf8_strlen (ds_library_entry_get_kind_name (e), -1));
      w.device = MAX (w.device, MIN (28, device ? g_utf8_strlen (device, -1) : 0));
    }

  return w;
}

/* One result's line: its columns, then its label and tags (or, for a
 * file that cannot be read, why). */
static void
list_print_row (DsLibraryEntry   *e,
                const ListWidths *w)
{
  g_autofree char *date = format_local (ds_library_entry_get_date (e));
  g_autofree char *device = g_strdup (ds_library_entry_get_device (e));
  const char *const *tags = ds_library_entry_get_tags (e);

  if (device != NULL && g_utf8_strlen (device, -1) > 28)
    {
      char *end = g_utf8_offset_to_pointer (device, 27);
      strcpy (end, "…");
    }

  ds_cli_print_cell (ds_library_entry_get_id (e), w->id + 2);
  ds_cli_print_cell (ds_library_entry_get_kind_name (e), w->kind + 2);
  ds_cli_print_cell (status_name (ds_library_entry_get_status (e)), w->status + 2);
  ds_cli_print_cell (date, w->date + 2);
  ds_cli_print_cell (device ? device : "", w->device + 2);
  if (!ds_library_entry_is_readable (e))
    {
      const char *why = ds_library_entry_get_error_message (e);
      g_autofree char *prefix = g_strconcat (ds_library_entry_get_path (e), ": ", NULL);

      /* The id already names the file. */
      ds_cli_print_cell (g_str_has_prefix (why, prefix) ? why + strlen (prefix) : why, 0);
    }
  else
    {
      ds_cli_print_cell (ds_library_entry_get_label (e), 0);
      if (tags[0] != NULL)
        {
          g_autofree char *joined = g_strjoinv (", ", (char **) tags);
          printf (" [");
          ds_cli_print_cell (joined, 0);
          printf ("]");
        }
    }
  printf ("\n");
}

static void
list_print_table (DsLibrary *library,
                  GPtrArray *shown)
{
  ListWidths w;

  printf (ngettext ("%u result in %s\n", "%u results in %s\n", shown->len), shown->len,
          ds_library_get_dir (library));
  if (shown->len == 0)
    return;

  w = list_widths (shown);
  printf ("\n");
  ds_cli_print_cell (_("ID"), w.id + 2);
  ds_cli_print_cell (_("TEST"), w.kind + 2);
  ds_cli_print_cell (_("STATUS"), w.status + 2);
  ds_cli_print_cell (_("STARTED"), w.date + 2);
  ds_cli_print_cell (_("DEVICE"), w.device + 2);
  printf (_("LABEL\n"));

  for (guint i = 0; i < shown->len; i++)
    list_print_row (shown->pdata[i], &w);
}

int
ds_cli_results_list (DsLibrary  *library,
                     const char *kind,
                     const char *tag,
                     const char *search,
                     gboolean    json)
{
  const Filter filter = { kind, tag, search };
  GListModel *model = G_LIST_MODEL (library);
  g_autoptr (GPtrArray) shown = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (DsLibraryEntry) e = g_list_model_get_item (model, i);

      if (entry_wanted (e, &filter))
        g_ptr_array_add (shown, g_steal_pointer (&e));
    }

  if (json)
    list_print_json (library, shown);
  else
    list_print_table (library, shown);

  return DS_CLI_OK;
}
