/* ds-fio-job-text.c: what of a result may go into an fio job file, and
 * the job read back as fio reads it (see ds-fio-export.c for fio's parser)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-fio-private.h"
#include "ds-text.h"

/* Shorter than the smallest buffer fio reads a line into (1024). */
#define MAX_LINE_BYTES    1000

/* The character of @file that a job file cannot carry, as a short text
 * for the message ("a newline", "“;”"); NULL when it is safe. */
char *
ds_fio_unsafe_in_filename (const char *file)
{
  gsize length = strlen (file);

  if (length == 0)
    return g_strdup (_("nothing (an empty name)"));
  if (!g_utf8_validate (file, -1, NULL))
    return g_strdup (_("bytes that are not UTF-8"));
  if (length > MAX_LINE_BYTES - 32)
    return g_strdup_printf (_("%zu bytes (fio reads a line of at most about 1000)"), length);
  if (g_ascii_isspace (file[0]) || g_ascii_isspace (file[length - 1]))
    return g_strdup (_("a blank at its start or end (fio strips it)"));
  if (file[0] == ':')
    return g_strdup (_("a “:” first (fio skips it)"));
  for (const char *p = file; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n' || c == '\r')
        return g_strdup (_("a line break"));
      if (g_unichar_iscntrl (c) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
          c == 0x2028 || c == 0x2029)
        return g_strdup_printf (_("a control character (U+%04X)"), c);
      if (strchr (";#$=[]\\", (int) c) != NULL && c < 0x80)
        return g_strdup_printf ("“%c”", (char) c);
    }

  return NULL;
}

/* fio's reading of @job (see the top): every line shorter than its
 * buffer; comments, sections of our names, and options of our keys whose
 * values hold nothing fio would cut, expand or split.  A job that fails
 * this is our bug, refused rather than written. */
gboolean
ds_fio_job_check (const char *job)
{
  g_auto (GStrv) lines = g_strsplit (job, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *eq;

      if (strlen (l) >= MAX_LINE_BYTES)
        return FALSE;
      if (*l == '\0' || *l == ';')
        continue;
      if (*l == '[')
        {
          if (!g_regex_match_simple ("^\\[[a-z0-9_-]+\\]$", l, 0, 0))
            return FALSE;
          continue;
        }
      eq = strchr (l, '=');
      if (eq == NULL || eq == l || strspn (l, "abcdefghijklmnopqrstuvwxyz_") != (gsize) (eq - l) ||
          g_str_has_prefix (l, "exec") || g_str_has_prefix (l, "include"))
        return FALSE;
      if (g_str_has_prefix (l, "filename="))
        {
          g_autoptr (GString) file = g_string_new (eq + 1);
          g_autofree char *why = NULL;

          /* Our own escape of ':' is the one backslash allowed, and a ':'
           * not escaped is one fio splits the name at.  Without the escapes,
           * the name is checked as any other. */
          g_string_replace (file, "\\:", "x", 0);
          if (strchr (file->str, ':') != NULL)
            return FALSE;
          why = ds_fio_unsafe_in_filename (file->str);
          if (why != NULL)
            return FALSE;
          continue;
        }
      if (!g_regex_match_simple ("^[A-Za-z0-9_.-]+$", eq + 1, 0, 0))
        return FALSE;
    }

  return TRUE;
}

/* The job in @out, once fio's reading of it is only ours (else NULL:
 * never written). */
char *
ds_fio_job_checked (GString  *out,
         GError  **error)
{
  if (!ds_fio_job_check (out->str))
    {
      g_string_free (out, TRUE);
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("the fio job would hold more than Diskscope's options (a bug): not written"));
      return NULL;
    }
  return g_string_free (out, FALSE);
}

