/* fuzz-common.h: what the fuzz targets check of every output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "ds-error.h"
#include "ds-result-json.h"

/* Text that prints safely: valid UTF-8, nothing below 0x20 but the
 * newline, no DEL, no C1 control, no bidi override or isolate. */
static inline void
ds_fuzz_check_inert (const char *what,
                     const char *text)
{
  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    {
      fprintf (stderr, "%s: not UTF-8\n", what);
      abort ();
    }
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c < 0x20 && c != '\n') || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
          (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
        {
          fprintf (stderr, "%s prints U+%04X\n", what, c);
          abort ();
        }
    }
}

/* An error the documented way: DS_ERROR, one of @codes (0-terminated, as
 * DS_ERROR_CORRUPT is not 0), a message that prints safely. */
static inline void
ds_fuzz_check_error (const char   *what,
                     const GError *error,
                     const int    *codes)
{
  gboolean known = FALSE;

  if (error == NULL || error->domain != DS_ERROR || error->message[0] == '\0')
    {
      fprintf (stderr, "%s: no error, or not DS_ERROR\n", what);
      abort ();
    }
  for (const int *c = codes; *c != -1; c++)
    known |= error->code == *c;
  if (!known)
    {
      fprintf (stderr, "%s: unexpected error %d: %s\n", what, error->code, error->message);
      abort ();
    }
  ds_fuzz_check_inert (what, error->message);
}

/* @result saves as JSON that loads again (every writer is held to the
 * loader's bounds). */
static inline void
ds_fuzz_check_round_trip (const char     *what,
                          const DsResult *result)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) again = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  text = ds_result_to_data (result, &length);
  again = ds_result_load_data (text, (gssize) length, &error);
  if (again == NULL)
    {
      fprintf (stderr, "%s: saved, it does not load again: %s\n", what, error->message);
      abort ();
    }
}
