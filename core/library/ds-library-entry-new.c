/* ds-library-entry-new.c: making a library entry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An entry is made from a loaded result, from the fields the index keeps
 * of one (which it also gives back, for the index to keep), or for a file
 * that cannot be read; ds-library-entry.c is the type and what an entry
 * tells.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ds-annotation.h"
#include "ds-compare.h"
#include "ds-library-entry-private.h"
#include "ds-library-private.h"

char *
ds_result_describe (const DsResult *result)
{
  const DsBenchOps *ops = ds_bench_get (result->kind);

  if (ops != NULL && ops->describe != NULL)
    return ops->describe (result);

  return g_strdup (result->spec.write ? "write" : "read");
}

static void
make_search_text (DsLibraryEntry *self)
{
  g_autoptr (GString) all = g_string_new (NULL);
  const char *fields[] = { self->id, self->label, self->notes, self->device, self->device_path,
                           self->hostname, self->summary, ds_library_entry_get_kind_name (self),
                           self->model, self->serial, self->wwn };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (fields[i] != NULL)
      g_string_append_printf (all, "%s\n", fields[i]);
  for (guint i = 0; self->tags[i] != NULL; i++)
    g_string_append_printf (all, "%s\n", self->tags[i]);
  self->search_text = g_utf8_casefold (all->str, -1);
}

/* What a result without a label of its own is called: the model and the
 * path ("Loop device /dev/loop2"), or for a result that has no model (a
 * fio import) the host and the path ("host1 /dev/loop2"), and the date. */
static char *
default_label (const char *model,
               const char *path,
               const char *hostname,
               GDateTime  *date)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (date);
  g_autofree char *when = g_date_time_format (local, "%Y-%m-%d %H:%M");
  const char *first = model != NULL ? model : hostname;

  if (first != NULL && path != NULL)
    return g_strdup_printf ("%s %s · %s", first, path, when);
  return g_strdup_printf ("%s · %s", first != NULL ? first : path != NULL ? path : "?", when);
}

/* The row of @comparison keyed by one of @keys, the first key first;
 * NULL when it has none of them with a value. */
static const DsCompareRow *
preferred_row (const DsComparison *comparison,
               const char *const  *keys)
{
  for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
    for (guint i = 0; i < comparison->rows->len; i++)
      {
        const DsCompareRow *row = comparison->rows->pdata[i];

        if (strcmp (row->key, keys[k]) == 0 && !isnan (row->values[0]))
          return row;
      }
  return NULL;
}

/* The kind's headline figure: the one it names (DsBenchOps.headline_keys),
 * else its first average rate, else its first rate, else its first figure
 * (the comparison's rows, in its order). */
static void
set_headline (DsLibraryEntry *self,
              const DsResult *result)
{
  DsResult *pair[2] = { (DsResult *) result, (DsResult *) result };
  const DsBenchOps *ops = ds_bench_get (result->kind);
  g_autoptr (DsComparison) comparison = NULL;
  const DsCompareRow *best = NULL;

  if (!ds_result_has_measurements (result))
    return;
  comparison = ds_comparison_new (pair, NULL, 2, NULL);
  if (comparison == NULL)
    return;

  best = preferred_row (comparison, ops != NULL ? ops->headline_keys : NULL);
  for (int pass = 0; pass < 3 && best == NULL; pass++)
    for (guint i = 0; i < comparison->rows->len && best == NULL; i++)
      {
        const DsCompareRow *row = comparison->rows->pdata[i];

        if (isnan (row->values[0]))
          continue;
        if (pass == 0 && row->unit == DS_COMPARE_RATE &&
            (strstr (row->key, "avg") != NULL || strstr (row->key, "average") != NULL))
          best = row;
        else if (pass == 1 && row->unit == DS_COMPARE_RATE)
          best = row;
        else if (pass == 2)
          best = row;
      }
  if (best == NULL)
    return;

  self->headline_key = g_strdup (best->key);
  self->headline_name = *best->measure != '\0' ?
    g_strdup_printf ("%s, %s %s", best->section, best->name, best->measure) :
    g_strdup_printf ("%s, %s", best->section, best->name);
  self->headline_unit = (int) best->unit;
  self->headline_value = best->values[0];
}

DsLibraryEntry *
ds_library_entry_new_for_result (const char     *id,
                                 const char     *path,
                                 const DsResult *result)
{
  DsLibraryEntry *self = g_object_new (DS_TYPE_LIBRARY_ENTRY, NULL);
  GDateTime *date = NULL;

  self->id = g_strdup (id);
  self->path = g_strdup (path);
  self->status = result->cancelled ? DS_LIBRARY_STATUS_STOPPED :
                 result->error != NULL ? DS_LIBRARY_STATUS_FAILED :
                 DS_LIBRARY_STATUS_COMPLETE;
  self->kind = result->kind;
  self->custom_label = result->annotation.label != NULL;
  self->notes = g_strdup (result->annotation.notes);
  self->tags = result->annotation.tags ? g_strdupv (result->annotation.tags) : g_new0 (char *, 1);
  /* One rule for runs and imports: the path, which both have. */
  self->device = g_strdup (result->target.path ? result->target.path : result->target.model);
  self->device_path = g_strdup (result->target.path);
  self->size_bytes = result->target.size_bytes;
  if (result->started_at != NULL)
    date = g_date_time_new_from_iso8601 (result->started_at, NULL);
  if (date == NULL)
    date = g_date_time_new_now_utc ();
  self->date = date;
  self->hostname = g_strdup (result->hostname);
  self->summary = ds_result_describe (result);
  self->model = g_strdup (result->target.model);
  self->label = self->custom_label ? g_strdup (result->annotation.label) :
                default_label (self->model, self->device_path, self->hostname, self->date);
  self->serial = g_strdup (result->target.serial);
  self->wwn = g_strdup (result->target.wwn);
  self->n_warnings = result->warnings != NULL ? result->warnings->len : 0;
  set_headline (self, result);
  make_search_text (self);

  return self;
}

DsLibraryEntry *
ds_library_entry_new_fields (const DsLibraryEntryFields *f)
{
  DsLibraryEntry *self = g_object_new (DS_TYPE_LIBRARY_ENTRY, NULL);
  g_autoptr (GDateTime) day = g_date_time_new_from_unix_utc (f->date_us / G_USEC_PER_SEC);

  self->id = g_strdup (f->id);
  self->path = g_strdup (f->path);
  self->status = f->status;
  self->error_message = g_strdup (f->error_message);
  self->kind = f->kind;
  self->custom_label = f->custom_label;
  self->notes = g_strdup (f->notes);
  self->tags = f->tags != NULL ? g_strdupv ((char **) f->tags) : g_new0 (char *, 1);
  self->device = g_strdup (f->device);
  self->device_path = g_strdup (f->device_path);
  self->model = g_strdup (f->model);
  self->serial = g_strdup (f->serial);
  self->wwn = g_strdup (f->wwn);
  self->size_bytes = f->size_bytes;
  if (day == NULL)
    day = g_date_time_new_from_unix_utc (0);
  self->date = g_date_time_add (day, f->date_us % G_USEC_PER_SEC);
  self->hostname = g_strdup (f->hostname);
  self->summary = g_strdup (f->summary != NULL ? f->summary : "");
  /* A default label is made anew: it says the date in this time zone. */
  if (f->status == DS_LIBRARY_STATUS_UNREADABLE || f->custom_label)
    self->label = g_strdup (f->label != NULL ? f->label : f->id);
  else
    self->label = default_label (self->model, self->device_path, self->hostname, self->date);
  self->n_warnings = f->n_warnings;
  self->headline_key = g_strdup (f->headline_key);
  self->headline_name = g_strdup (f->headline_name);
  self->headline_unit = f->headline_unit;
  self->headline_value = f->headline_value;
  make_search_text (self);

  return self;
}

void
ds_library_entry_get_fields (DsLibraryEntry       *self,
                             DsLibraryEntryFields *f)
{
  memset (f, 0, sizeof *f);
  f->id = self->id;
  f->path = self->path;
  f->status = self->status;
  f->error_message = self->error_message;
  f->kind = self->kind;
  f->label = self->label;
  f->custom_label = self->custom_label;
  f->notes = self->notes;
  f->tags = (const char *const *) self->tags;
  f->device = self->device;
  f->device_path = self->device_path;
  f->model = self->model;
  f->serial = self->serial;
  f->wwn = self->wwn;
  f->size_bytes = self->size_bytes;
  f->date_us = g_date_time_to_unix (self->date) * G_USEC_PER_SEC +
               g_date_time_get_microsecond (self->date);
  f->hostname = self->hostname;
  f->summary = self->summary;
  f->n_warnings = self->n_warnings;
  f->headline_key = self->headline_key;
  f->headline_name = self->headline_name;
  f->headline_unit = self->headline_unit;
  f->headline_value = self->headline_value;
}

DsLibraryEntry *
ds_library_entry_new_unreadable (const char   *id,
                                 const char   *path,
                                 const GError *error,
                                 gint64        mtime_s)
{
  DsLibraryEntry *self = g_object_new (DS_TYPE_LIBRARY_ENTRY, NULL);

  self->id = g_strdup (id);
  self->path = g_strdup (path);
  self->status = DS_LIBRARY_STATUS_UNREADABLE;
  self->error_message = g_strdup (error != NULL ? error->message : "unreadable");
  self->kind = DS_BENCH_N_KINDS;
  self->label = g_path_get_basename (path);
  self->tags = g_new0 (char *, 1);
  self->date = g_date_time_new_from_unix_utc (mtime_s);
  if (self->date == NULL)
    self->date = g_date_time_new_from_unix_utc (0);
  self->summary = g_strdup ("unreadable");
  make_search_text (self);

  return self;
}
