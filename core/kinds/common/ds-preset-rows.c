/* ds-preset-rows.c: custom rows, the user's own grid (see ds-preset.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ds-bench-mark.h"
#include "ds-clock.h"
#include "ds-error.h"
#include "ds-limits.h"
#include "ds-preset.h"
#include "ds-units.h"

#define KIB (UINT32_C (1) << 10)
#define MIB (UINT32_C (1) << 20)
#define SECTOR 512u

#define R DS_MARK_COLUMN (DS_MARK_READ)
#define W DS_MARK_COLUMN (DS_MARK_WRITE)
#define M DS_MARK_COLUMN (DS_MARK_MIX)

/* The patterns a row names, and what each runs. */
static const struct {
  const char *name;
  gboolean    random;
  unsigned    columns;
} patterns[] = {
  { "read", FALSE, R },
  { "write", FALSE, W },
  { "randread", TRUE, R },
  { "randwrite", TRUE, W },
  { "randrw", TRUE, M },
  { "rw", FALSE, M },
  { "seq", FALSE, R | W },
  { "rnd", TRUE, R | W },
};

const char *
ds_preset_row_pattern (const DsPresetRow *row)
{
  for (unsigned i = 0; i < G_N_ELEMENTS (patterns); i++)
    if (patterns[i].random == row->random && patterns[i].columns == row->columns)
      return patterns[i].name;

  return row->random ? "rnd" : "seq";
}

/* "qd32", "q32", "q32t4": the queue depth, and the threads if given. */
static gboolean
parse_queue (const char *token,
             DsPresetRow *row)
{
  const char *p = token + 1;
  char *end = NULL;
  guint64 q;

  if (g_ascii_tolower (p[0]) == 'd')
    p++;
  if (!g_ascii_isdigit (p[0]))
    return FALSE;
  q = g_ascii_strtoull (p, &end, 10);
  if (*end == '\0')
    {
      row->queue_depth = (unsigned) MIN (q, G_MAXUINT);
      return TRUE;
    }
  if (g_ascii_tolower (*end) == 't' && g_ascii_isdigit (end[1]))
    {
      const char *t = end + 1;
      guint64 threads = g_ascii_strtoull (t, &end, 10);

      if (*end != '\0')
        return FALSE;
      row->queue_depth = (unsigned) MIN (q, G_MAXUINT);
      row->threads = (unsigned) MIN (threads, G_MAXUINT);
      return TRUE;
    }

  return FALSE;
}

/* "t4", "mix70", "r70", "70%": digits after a prefix (or before a "%"). */
static gboolean
parse_number (const char *digits,
              const char *suffix,
              unsigned   *ret)
{
  char *end = NULL;
  guint64 v;

  if (!g_ascii_isdigit (digits[0]))
    return FALSE;
  v = g_ascii_strtoull (digits, &end, 10);
  if (strcmp (end, suffix) != 0)
    return FALSE;
  *ret = (unsigned) MIN (v, G_MAXUINT);

  return TRUE;
}

static gboolean
row_check (const char        *text,
           const DsPresetRow *row,
           GError           **error)
{
  uint64_t in_flight = (uint64_t) row->queue_depth * row->threads;
  const char *problem = NULL;
  g_autofree char *detail = NULL;

  if (row->block_size_bytes == 0 || row->block_size_bytes % SECTOR != 0 ||
      row->block_size_bytes > DS_LIMIT_BLOCK_SIZE_MAX)
    detail = g_strdup_printf (_("the block size (%" PRIu32 " bytes) must be a multiple of "
                              "512 bytes, at most 1 GiB (and, on the device, a multiple of "
                              "its logical block size)"), row->block_size_bytes);
  else if (row->queue_depth < 1 || row->queue_depth > DS_LIMIT_QUEUE_DEPTH_MAX)
    detail = g_strdup_printf (_("the queue depth must be 1 to %u, not %u"),
                              DS_LIMIT_QUEUE_DEPTH_MAX, row->queue_depth);
  else if (row->threads < 1 || row->threads > DS_LIMIT_THREADS_MAX)
    detail = g_strdup_printf (_("the threads must be 1 to %u, not %u"),
                              DS_LIMIT_THREADS_MAX, row->threads);
  else if (in_flight > DS_LIMIT_IN_FLIGHT_MAX)
    detail = g_strdup_printf (_("queue depth %u × %u threads is %" PRIu64 " I/Os in "
                              "flight, more than %u"), row->queue_depth, row->threads,
                              in_flight, DS_LIMIT_IN_FLIGHT_MAX);
  else if (in_flight * row->block_size_bytes > DS_LIMIT_IN_FLIGHT_BYTES_MAX)
    detail = g_strdup_printf (_("queue depth × threads × block size needs %" PRIu64 " MiB of "
                              "buffers, more than %" PRIu64 " MiB"),
                              (in_flight * row->block_size_bytes) >> 20,
                              DS_LIMIT_IN_FLIGHT_BYTES_MAX >> 20);
  else if (row->mix_percent > 100)
    detail = g_strdup_printf (_("the mix is a percentage of reads (0 to 100), not %u"),
                              row->mix_percent);
  else if (row->duration_ns != 0 &&
           (row->duration_ns < DS_LIMIT_INTERVAL_MIN_NS || row->duration_ns > DS_LIMIT_INTERVAL_MAX_NS))
    problem = _("the row's time must be 100ms to 1h");

  if (detail == NULL && problem == NULL)
    return TRUE;

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("“%s”: %s"), text,
               detail != NULL ? detail : problem);
  return FALSE;
}

gboolean
ds_preset_row_parse (const char   *text,
                     DsPresetRow  *ret_row,
                     GError      **error)
{
  g_auto (GStrv) tokens = g_strsplit_set (text != NULL ? text : "", ",", -1);
  g_autofree char *shown = g_strstrip (g_strdup (text != NULL ? text : ""));
  DsPresetRow row = { .queue_depth = 1, .threads = 1 };
  gboolean has_mix = FALSE;
  guint n = 0;

  for (guint i = 0; tokens[i] != NULL; i++)
    {
      g_strstrip (tokens[i]);
      if (tokens[i][0] != '\0')
        tokens[n++] = tokens[i];
      else
        g_free (tokens[i]);
    }
  for (guint i = n; tokens[i] != NULL; i++)
    tokens[i] = NULL;

  if (n < 2)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("“%s”: give at least a pattern and a block size, as in "
                   "“randread,4k,qd32,t1”"), shown);
      return FALSE;
    }

  for (unsigned i = 0; i <= G_N_ELEMENTS (patterns); i++)
    {
      if (i == G_N_ELEMENTS (patterns))
        {
          g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                       _("“%s”: unknown pattern “%s”: use read, write, randread, "
                       "randwrite, randrw, rw, seq or rnd"), shown, tokens[0]);
          return FALSE;
        }
      if (g_ascii_strcasecmp (tokens[0], patterns[i].name) == 0)
        {
          row.random = patterns[i].random;
          row.columns = patterns[i].columns;
          break;
        }
    }

  {
    uint64_t bytes = 0;
    g_autoptr (GError) local = NULL;

    if (!ds_parse_size (tokens[1], &bytes, &local))
      {
        g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                     _("“%s”: “%s” is not a block size (4k, 128k, 1m)"), shown, tokens[1]);
        return FALSE;
      }
    row.block_size_bytes = (uint32_t) MIN (bytes, (uint64_t) G_MAXUINT32);
    if (bytes > G_MAXUINT32)
      row.block_size_bytes = 1;  /* refused below, as not a multiple of 512 */
  }

  for (guint i = 2; i < n; i++)
    {
      const char *t = tokens[i];
      char first = g_ascii_tolower (t[0]);

      if (first == 'q' && parse_queue (t, &row))
        continue;
      if (first == 't' && parse_number (t + 1, "", &row.threads))
        continue;
      if ((g_ascii_strncasecmp (t, "mix", 3) == 0 && parse_number (t + 3, "", &row.mix_percent)) ||
          (first == 'r' && parse_number (t + 1, "", &row.mix_percent)) ||
          parse_number (t, "%", &row.mix_percent))
        {
          has_mix = TRUE;
          continue;
        }
      if (g_ascii_isdigit (t[0]) && g_ascii_isalpha (t[strlen (t) - 1]) &&
          ds_parse_duration (t, &row.duration_ns, NULL))
        continue;

      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("“%s”: “%s” is not a queue depth (qd32), threads (t4), "
                   "mix (mix70) or time (10s)"), shown, t);
      return FALSE;
    }

  if (row.columns == M)
    row.mix_percent = has_mix ? row.mix_percent : 70;
  else if (has_mix)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("“%s”: a mix needs a mixed pattern (randrw or rw), not %s"),
                   shown, tokens[0]);
      return FALSE;
    }

  if (!row_check (shown, &row, error))
    return FALSE;

  *ret_row = row;
  return TRUE;
}

/* "4k", "1m", "1536": the size in the largest unit it is a whole number of. */
static char *
size_token (uint32_t bytes,
            gboolean upper)
{
  if (bytes % MIB == 0)
    return g_strdup_printf ("%" PRIu32 "%s", bytes / MIB, upper ? "M" : "m");
  if (bytes % KIB == 0)
    return g_strdup_printf ("%" PRIu32 "%s", bytes / KIB, upper ? "K" : "k");
  return g_strdup_printf ("%" PRIu32, bytes);
}

char *
ds_preset_row_to_string (const DsPresetRow *row)
{
  g_autofree char *bs = size_token (row->block_size_bytes, FALSE);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s,%s,qd%u,t%u", ds_preset_row_pattern (row), bs,
                          row->queue_depth, row->threads);
  if (row->columns & M)
    g_string_append_printf (out, ",mix%u", row->mix_percent);
  if (row->duration_ns != 0)
    {
      if (row->duration_ns % DS_NS_PER_SEC == 0)
        g_string_append_printf (out, ",%" PRIu64 "s", row->duration_ns / DS_NS_PER_SEC);
      else
        g_string_append_printf (out, ",%" PRIu64 "ms", row->duration_ns / 1000000);
    }

  return g_string_free (out, FALSE);
}

/* Splits @text into its rows (";" or lines), blanks dropped. */
static GStrv
split_rows (const char *text)
{
  g_auto (GStrv) parts = g_strsplit_set (text != NULL ? text : "", ";\n", -1);
  GPtrArray *rows = g_ptr_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] != '\0')
        g_ptr_array_add (rows, g_strdup (parts[i]));
    }
  g_ptr_array_add (rows, NULL);

  return (GStrv) g_ptr_array_free (rows, FALSE);
}

static gboolean
parse_rows (const char  *text,
            GArray     **ret_rows,
            GError     **error)
{
  g_auto (GStrv) parts = split_rows (text);
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (DsPresetRow));
  guint n = g_strv_length (parts);

  if (n == 0 || n > DS_PRESET_ROWS_MAX)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
                   _("give 1 to %u rows, not %u"), DS_PRESET_ROWS_MAX, n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      DsPresetRow row;

      if (!ds_preset_row_parse (parts[i], &row, error))
        {
          g_prefix_error (error, _("row %u "), i + 1);
          return FALSE;
        }
      g_array_append_val (rows, row);
    }

  *ret_rows = g_steal_pointer (&rows);
  return TRUE;
}

char *
ds_preset_rows_normalize (const char  *text,
                          GError     **error)
{
  g_autoptr (GArray) rows = NULL;
  GString *out;

  if (!parse_rows (text, &rows, error))
    return NULL;

  out = g_string_new (NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *one = ds_preset_row_to_string (&g_array_index (rows, DsPresetRow, i));

      g_string_append_printf (out, "%s%s", i ? ";" : "", one);
    }

  return g_string_free (out, FALSE);
}

/* "RND4K Q32T4", "RND8K Q4T1 R70"; ids as the built-in presets' ("rnd4k-q32t4"),
 * with "-2", "-3" on a row that repeats an earlier one. */
static void
name_row (DsPresetRow *row,
          GHashTable  *ids)
{
  g_autofree char *bs = size_token (row->block_size_bytes, TRUE);
  g_autofree char *label = g_strdup_printf ("%s%s Q%uT%u", row->random ? "RND" : "SEQ", bs,
                                            row->queue_depth, row->threads);
  g_autofree char *id = NULL;
  char *base;

  if (row->columns == M)
    {
      char *mixed = g_strdup_printf ("%s R%u", label, row->mix_percent);

      g_free (label);
      label = mixed;
    }
  base = g_ascii_strdown (label, -1);
  g_strdelimit (base, " ", '-');
  id = g_strdup (base);
  for (unsigned n = 2; g_hash_table_contains (ids, id); n++)
    {
      g_free (id);
      id = g_strdup_printf ("%s-%u", base, n);
    }
  g_free (base);
  g_hash_table_add (ids, g_strdup (id));
  row->id = g_steal_pointer (&id);
  row->label = g_steal_pointer (&label);
}

static DsPreset *
custom_new (GArray *rows)
{
  DsPreset *preset = g_new0 (DsPreset, 1);
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < rows->len; i++)
    name_row (&g_array_index (rows, DsPresetRow, i), ids);

  preset->name = DS_PRESET_CUSTOM;
  preset->title = N_("Custom rows");
  preset->source = "the user's rows";
  preset->order = DS_PRESET_BY_ROW;
  preset->mix_allowed = TRUE;
  preset->n_rows = rows->len;
  preset->rows = (const DsPresetRow *) (void *) g_array_free (rows, FALSE);
  /* CrystalDiskMark's defaults: its Settings change the rows, not these. */
  preset->test_size_bytes = UINT64_C (1) << 30;
  preset->count = 5;
  preset->duration_ns = 5 * DS_NS_PER_SEC;
  preset->warmup_ns = 5 * DS_NS_PER_SEC;
  preset->pause_ns = 5 * DS_NS_PER_SEC;

  return preset;
}

const DsPreset *
ds_preset_for_spec (const DsBenchSpec  *spec,
                    GError            **error)
{
  const DsMarkOptions *o = ds_mark_options_const (spec);

  /* Canonical rows text → DsPreset*, never freed: a step's row points
   * into its preset, and runs and pages keep steps for as long as they
   * like.  A process sees a handful of distinct lists. */
  static GMutex lock;
  static GHashTable *interned;
  g_autofree char *canonical = NULL;
  g_autoptr (GArray) rows = NULL;
  DsPreset *preset;

  if (o->rows == NULL)
    {
      const DsPreset *named = ds_preset_lookup (o->preset);

      if (named == NULL)
        {
          g_autofree char *names = ds_preset_names ();

          g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("unknown preset “%s”: use %s"),
                       o->preset ? o->preset : "", names);
        }
      return named;
    }

  canonical = ds_preset_rows_normalize (o->rows, error);
  if (canonical == NULL)
    return NULL;

  g_mutex_lock (&lock);
  if (interned == NULL)
    interned = g_hash_table_new (g_str_hash, g_str_equal);
  preset = g_hash_table_lookup (interned, canonical);
  if (preset == NULL && parse_rows (canonical, &rows, NULL))
    {
      preset = custom_new (g_steal_pointer (&rows));
      g_hash_table_insert (interned, g_steal_pointer (&canonical), preset);
    }
  g_mutex_unlock (&lock);

  return preset;
}

uint64_t
ds_preset_step_duration (const DsBenchSpec  *spec,
                         const DsPresetStep *step)
{
  return step->row->duration_ns != 0 ? step->row->duration_ns : spec->duration_ns;
}
