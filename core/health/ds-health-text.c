/* ds-health-text.c: smartctl's output as text, checked before json-glib
 * parses it (ds_health_parse(); the tree is read in ds-health-parse.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ds-error.h"
#include "ds-health.h"

/* smartctl's output is a few levels deep; refuse absurd nesting before
 * json-glib recurses into it (a file given to --from-json is anyone's). */
#define MAX_DEPTH 32
#define MAX_OUTPUT_BYTES (16 * 1024 * 1024)

static gboolean
nesting_ok (const char *data,
            gsize       length)
{
  gboolean in_string = FALSE;
  unsigned depth = 0;

  for (gsize i = 0; i < length; i++)
    {
      if (in_string)
        {
          if (data[i] == '\\')
            i++;
          else if (data[i] == '"')
            in_string = FALSE;
        }
      else if (data[i] == '"')
        in_string = TRUE;
      else if ((data[i] == '[' || data[i] == '{') && ++depth > MAX_DEPTH)
        return FALSE;
      else if ((data[i] == ']' || data[i] == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

DsHealth *
ds_health_parse (const char  *json,
                 gssize       length,
                 int          exit_status,
                 GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;

  if (json == NULL)
    length = 0;
  else if (length < 0)
    length = (gssize) strlen (json);

  if (length == 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT, _("smartctl printed nothing"));
      return NULL;
    }
  if (length > MAX_OUTPUT_BYTES || memchr (json, '\0', (size_t) length) != NULL ||
      !nesting_ok (json, (gsize) length))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("not smartctl's JSON output (binary, too large or nested too deep)"));
      return NULL;
    }
  if (!json_parser_load_from_data (parser, json, length, &local))
    {
      g_autofree char *start = g_strndup (json, MIN (length, 80));

      g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                   _("smartctl did not print JSON (%s); it began: %s"),
                   local->message, g_strstrip (g_strdelimit (start, "\n\r\t", ' ')));
      return NULL;
    }

  return ds_health_parse_node (json_parser_get_root (parser), exit_status, error);
}
