/* fuzz-result-load.c: libFuzzer target for the result loader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ds_result_load_data() must turn any bytes into either a result or a
 * DS_ERROR_CORRUPT error, never a crash.  What it accepts must also hold
 * together: it renders as a text report, saves as JSON, and that JSON loads
 * again.  Seeds: tests/fuzz/corpus/; run it with tests/bench/fuzz-loader.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ds-error.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-result.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DsResult) result = NULL;

  result = ds_result_load_data ((const char *) data, (gssize) size, &error);

  /* Exactly one of a result or an error, and the error is the documented one. */
  if ((result == NULL) == (error == NULL))
    abort ();
  if (error != NULL)
    {
      if (!g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT) || error->message[0] == '\0')
        abort ();
      return 0;
    }

  /* Accepted: it must render and round-trip. */
  {
    g_autofree char *report = ds_report_text (result, DS_UNITS_MB);
    g_autofree char *text = NULL;
    g_autoptr (GError) again_error = NULL;
    g_autoptr (DsResult) again = NULL;
    gsize length = 0;

    if (report == NULL)
      abort ();
    text = ds_result_to_data (result, &length);
    if (text == NULL)
      abort ();
    again = ds_result_load_data (text, (gssize) length, &again_error);
    if (again == NULL)
      {
        fprintf (stderr, "a loaded result does not load again after saving: %s\n",
                 again_error->message);
        abort ();
      }
  }

  return 0;
}
