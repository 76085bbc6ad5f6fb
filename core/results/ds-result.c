/* ds-result.c: what a run produced
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <sys/utsname.h>

#include "ds-error.h"
#include "ds-limits.h"
#include "ds-result.h"
#include "ds-warnings.h"

DsResult *
ds_result_new_blank (DsBenchKind kind)
{
  DsResult *result = g_new0 (DsResult, 1);

  result->kind = kind;
  ds_bench_spec_init (&result->spec, kind);
  result->notes = g_ptr_array_new_with_free_func (g_free);
  result->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_warning_free);
  result->error_offset_bytes = -1;

  return result;
}

DsResult *
ds_result_new (const DsBenchSpec *spec)
{
  DsResult *result = ds_result_new_blank (spec->kind);
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  struct utsname uts;

  ds_bench_spec_clear (&result->spec);
  ds_bench_spec_copy (&result->spec, spec);

  /* Where and when this run happens. */
  result->tool_version = g_strdup (PACKAGE_VERSION);
  result->started_at = g_date_time_format_iso8601 (now);
  result->hostname = g_strdup (g_get_host_name ());
  if (uname (&uts) == 0)
    result->kernel = g_strdup (uts.release);

  if (ops != NULL && ops->data_new != NULL)
    result->data = ops->data_new ();

  return result;
}

void
ds_target_info_clear (DsTargetInfo *info)
{
  g_clear_pointer (&info->path, g_free);
  g_clear_pointer (&info->model, g_free);
  g_clear_pointer (&info->serial, g_free);
  g_clear_pointer (&info->wwn, g_free);
}

void
ds_result_free (DsResult *result)
{
  const DsBenchOps *ops;

  if (result == NULL)
    return;

  ops = ds_bench_get (result->kind);
  if (result->data != NULL && ops != NULL && ops->data_free != NULL)
    ops->data_free (result->data);

  ds_bench_spec_clear (&result->spec);
  ds_target_info_clear (&result->target);
  g_free (result->tool_version);
  g_free (result->started_at);
  g_free (result->hostname);
  g_free (result->kernel);
  g_free (result->engine);
  g_clear_pointer (&result->notes, g_ptr_array_unref);
  g_clear_pointer (&result->warnings, g_ptr_array_unref);
  g_clear_pointer (&result->environment, json_object_unref);
  g_clear_error (&result->error);
  ds_annotation_clear (&result->annotation);
  g_free (result);
}

void
ds_result_add_note (DsResult   *result,
                    const char *format,
                    ...)
{
  g_autofree char *note = NULL;
  va_list args;

  va_start (args, format);
  note = g_strdup_vprintf (format, args);
  va_end (args);

  /* Held to what the loader reads back (ds-limits.h): a note said twice
   * (each run of a mark's steps) once, at most DS_JSON_MAX_NOTES, each
   * under DS_JSON_MAX_STRING_BYTES once written (a control character is
   * six bytes as JSON: "\u0001"), cut at a character. */
  for (guint i = 0; i < result->notes->len; i++)
    if (strcmp (result->notes->pdata[i], note) == 0)
      return;
  if (result->notes->len >= DS_JSON_MAX_NOTES)
    return;
  if (strlen (note) > DS_JSON_MAX_STRING_BYTES / 6)
    {
      const char *end = note + DS_JSON_MAX_STRING_BYTES / 6;

      /* Back to the start of a character, then an ellipsis. */
      while (end > note && ((guchar) *end & 0xc0) == 0x80)
        end--;
      note[end - note] = '\0';
      note = g_realloc (note, (gsize) (end - note) + sizeof "…");
      strcat (note, "…");
    }
  if (result->notes->len == DS_JSON_MAX_NOTES - 1)
    {
      g_ptr_array_add (result->notes, g_strdup ("(more notes were left out)"));
      return;
    }
  g_ptr_array_add (result->notes, g_steal_pointer (&note));
}

void
ds_result_set_error (DsResult     *result,
                     const GError *error,
                     int           errno_value,
                     int64_t       offset_bytes)
{
  if (result->error != NULL || error == NULL)
    return;

  result->error = g_error_copy (error);
  result->error_errno = ABS (errno_value);
  result->error_offset_bytes = offset_bytes;
  result->complete = FALSE;
}

gboolean
ds_result_has_measurements (const DsResult *result)
{
  const DsBenchOps *ops;

  if (result->data == NULL)
    return FALSE;
  if (result->complete)
    return TRUE;

  ops = ds_bench_get (result->kind);
  if (ops != NULL && ops->measured != NULL)
    return ops->measured (result);

  /* The I/O loop names its engine as it starts.  A run it refused then
   * (a depth the engine cannot take, ...) or one refused before it, whose
   * target would not open, measured nothing. */
  return result->engine != NULL &&
         !g_error_matches (result->error, DS_ERROR, DS_ERROR_INVALID) &&
         !g_error_matches (result->error, DS_ERROR, DS_ERROR_UNSUPPORTED) &&
         !g_error_matches (result->error, DS_ERROR, DS_ERROR_REFUSED) &&
         !g_error_matches (result->error, DS_ERROR, DS_ERROR_NOT_FOUND) &&
         !g_error_matches (result->error, DS_ERROR, DS_ERROR_PERMISSION) &&
         !g_error_matches (result->error, DS_ERROR, DS_ERROR_BUSY);
}
